// URL mode's checks of what the user gives (packages/harness/src/url-mode.ts, through `pnpm test:contract --url`),
// against a small stand-in server that behaves like a freshly seeded implementation signing its tokens with a known
// secret.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { fixtureProducts } from "@api-ref/db/fixtures";
import { checkUrlTarget, freePort, UrlTargetError } from "@api-ref/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STAND_IN_SECRET as SECRET, type StandIn, startStandIn } from "./support/stand-in-server.ts";

let standIn: StandIn;
let url: string;
beforeAll(async () => {
  standIn = await startStandIn();
  url = standIn.url;
});
afterAll(() => standIn?.close());

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UrlTargetError);
  return (error as Error).message;
};

describe("checkUrlTarget", () => {
  it("accepts a fresh server with its own secret, and a run without secret or database", async () => {
    await expect(checkUrlTarget({ url, jwtSecret: SECRET })).resolves.toBeUndefined();
    await expect(checkUrlTarget({ url })).resolves.toBeUndefined();
  });

  it("says in one sentence that a wrong secret is not the server's", async () => {
    const message = await failure(checkUrlTarget({ url, jwtSecret: "some-other-secret-entirely-of-32-bytes" }));
    expect(message).toBe(
      "the JWT secret given (--jwt-secret or JWT_SECRET) is not the server's: the token it issued to a seeded user is not signed with it",
    );
  });

  it("refuses an empty secret instead of signing with a zero-length key", async () => {
    expect(await failure(checkUrlTarget({ url, jwtSecret: "" }))).toMatch(/^the JWT secret is empty/);
  });

  it("says when nothing answers at the URL", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    expect(await failure(checkUrlTarget({ url: closed }))).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/health got no answer \(ECONNREFUSED\); is the server running there\?$/,
    );
  });

  it("says when the database was used by an earlier run", async () => {
    standIn.stock = 3;
    try {
      expect(await failure(checkUrlTarget({ url }))).toMatch(/^the server's database is not a fresh seed .*stock 3/);
    } finally {
      standIn.stock = fixtureProducts.lowStock.stock;
    }
  });

  it("says when the database given cannot be reached", async () => {
    const databaseUrl = `postgres://postgres@127.0.0.1:${await freePort()}/nothing`;
    expect(await failure(checkUrlTarget({ url, databaseUrl }))).toMatch(
      /^cannot connect to the database given \(--database-url or DATABASE_URL\): /,
    );
  });
});

describe("pnpm test:contract --url", () => {
  const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [cli, ...args], {
        env: { PATH: process.env.PATH, ...env },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.once("close", (code) => resolve({ code, stderr }));
    });

  it("stops before the run with one line and exit 2 when JWT_SECRET is not the server's", async () => {
    const { code, stderr } = await run(["--url", url], { JWT_SECRET: "not-the-server-secret-though-32-bytes" });
    expect(code).toBe(2);
    const lines = stderr.trim().split("\n");
    expect(lines).toEqual([
      `contract: checking ${url} (JWT secret given, database not given)`,
      "error: the JWT secret given (--jwt-secret or JWT_SECRET) is not the server's: the token it issued to a seeded user is not signed with it",
    ]);
  });

  it("refuses a --server it knows no deviations of, naming those it knows, and --server without --url", async () => {
    const unknown = await run(["--url", url, "--server", "nginx"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: --server must be one of bun-serve, bun-node-http, deno-serve, got "nginx"/);
    const withImpl = await run(["--impl", "express", "--server", "bun-serve"]);
    expect(withImpl.code).toBe(2);
    expect(withImpl.stderr).toMatch(/^error: --server describes a --url server/);
  });

  it("says which server's deviations it holds the target to", async () => {
    const { code, stderr } = await run(["--url", url, "--server", "bun-serve"], {
      JWT_SECRET: "not-the-server-secret-though-32-bytes",
    });
    expect(code).toBe(2);
    expect(stderr.split("\n")[0]).toBe(
      `contract: checking ${url} (JWT secret given, database not given, the known deviations of bun-serve)`,
    );
  });

  it("takes a secret that begins with a dash when given as --jwt-secret=VALUE, and names that form otherwise", async () => {
    // A base64url secret begins with "-" one time in 64.
    const joined = await run(["--url", url, "--jwt-secret=-not-the-server-secret-though-32-bytes"]);
    expect(joined.code).toBe(2);
    expect(joined.stderr).toMatch(/^error: the JWT secret given \(--jwt-secret or JWT_SECRET\) is not the server's/m);
    const apart = await run(["--url", url, "--jwt-secret", "-not-the-server-secret-though-32-bytes"]);
    expect(apart.code).toBe(2);
    expect(apart.stderr).toContain("--jwt-secret=-XYZ");
  });

  it("refuses --jwt-secret and --database-url without --url", async () => {
    const { code, stderr } = await run(["--impl", "express", "--jwt-secret", "x"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: --jwt-secret and --database-url describe a --url server/);
  });
});
