// Every implementation, started as in production with a configuration it cannot start with, prints the problems
// alone (no stack trace, no log framing) and exits 2 — what a newcomer with a bad .env sees first.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { implementations, NEEDS, REPO_ROOT } from "@api-ref/harness";
import { describe, expect, it } from "vitest";
import { contract, targets } from "./targets.ts";

// Implementations this run started (and so built); none in URL mode, where the server is someone else's.
const started = implementations.filter((i) => contract.adminUrl !== null && targets.some((t) => t.name === i.name));

if (started.length === 0) {
  describe.each(targets)("$name", () => {
    it("started with a bad configuration, prints every problem alone and exits 2", (ctx) =>
      ctx.skip(NEEDS.ownInstances));
  });
}

/** Starts `impl` as in production with only `env` (and PATH) and waits for it to exit: its code and output. */
async function startWith(impl: (typeof started)[number], env: Record<string, string>) {
  const child = spawn(impl.start.command, impl.start.args, {
    cwd: join(REPO_ROOT, impl.dir),
    env: { PATH: process.env.PATH, ...impl.start.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  // "close", not "exit": the pipes can still hold the last of its output when the process has exited.
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

/** A DATABASE_URL the configuration accepts (nothing listens there: the process must stop before connecting). */
const SOME_DATABASE_URL = "postgres://postgres@127.0.0.1:1/api_ref";

// Every start at once (each a process that stops before connecting anywhere): one after another took a minute.
describe.each(started)("$name", { concurrent: true }, (impl) => {
  it("started with a bad configuration, prints every problem alone and exits 2", async () => {
    const { code, stdout, stderr } = await startWith(impl, { JWT_SECRET: "short", DATABASE_URL: "mysql://u@h/db" });
    expect(stderr).toBe(
      "invalid configuration:\n  - DATABASE_URL must be a postgres:// or postgresql:// URL\n  - JWT_SECRET must be at least 32 bytes, got 5\n",
    );
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });

  it("started with DB_STATEMENT_TIMEOUT_MS=0, which bounds nothing, prints that one problem on one line and exits 2", async () => {
    const secret = "a-random-enough-secret-for-this-check-0123";
    const env = { DATABASE_URL: SOME_DATABASE_URL, JWT_SECRET: secret, DB_STATEMENT_TIMEOUT_MS: "0" };
    const { code, stdout, stderr } = await startWith(impl, env);
    expect(stderr).toBe(
      'invalid configuration: DB_STATEMENT_TIMEOUT_MS must be an integer from 1 to 600000, got "0"\n',
    );
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });

  // RFC 7518 §3.2: an HS256 key has at least 256 bits; and a secret this repository has shipped is known to all.
  it.each([
    [
      "no JWT_SECRET at all",
      undefined,
      "JWT_SECRET is required (32 or more random bytes, e.g. `openssl rand -base64 32`)",
    ],
    ["a JWT_SECRET of 31 bytes", "x".repeat(31), "JWT_SECRET must be at least 32 bytes, got 31"],
    [
      "a JWT_SECRET of 16 characters but 31 bytes (bytes count)",
      `${"é".repeat(15)}x`,
      "JWT_SECRET must be at least 32 bytes, got 31",
    ],
    [
      'the placeholder "change-me-to-a-long-random-string"',
      "change-me-to-a-long-random-string",
      "JWT_SECRET is a placeholder from this repository; set a random one",
    ],
    [
      'the placeholder "compose-placeholder-secret-change-me"',
      "compose-placeholder-secret-change-me",
      "JWT_SECRET is a placeholder from this repository; set a random one",
    ],
  ] as Array<[string, string | undefined, string]>)(
    "started with %s, prints that one problem on one line and exits 2",
    async (_, secret, problem) => {
      const env = { DATABASE_URL: SOME_DATABASE_URL, ...(secret === undefined ? {} : { JWT_SECRET: secret }) };
      const { code, stdout, stderr } = await startWith(impl, env);
      expect(stderr).toBe(`invalid configuration: ${problem}\n`);
      expect(stdout).toBe("");
      expect(code).toBe(2);
    },
  );
});
