// Every way provisioning can fail on a newcomer's machine ends in a ProvisionError whose message is one line naming
// the cause and the way out; nothing escapes as an unhandled 'error' event or a test timeout. The embedded branch
// also works as root when the repository lies in a directory only root may enter.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ProvisionError, shippedInstallation } from "../src/embedded.ts";
import { checkDatabaseUrl, type ProvisionOptions, provisionPostgres } from "../src/provision.ts";

const NO_DOCKER = { DOCKER_HOST: "unix:///nonexistent/docker.sock" };
const EMBEDDED = { ...NO_DOCKER, PG_PROVIDER: "embedded" };
const isRoot = process.getuid?.() === 0;
const shippedNative = shippedInstallation().nativeDir;

// Open to all, as the system's temporary directory is: as root, PostgreSQL runs as the postgres user.
const scratch = mkdtempSync(join(tmpdir(), "api-ref-provision-failures-"));
chmodSync(scratch, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The rejection of a provisioning attempt, checked to be one actionable line. */
async function failure(options: ProvisionOptions): Promise<string> {
  const servers: { stop(): Promise<void> }[] = [];
  const error = await provisionPostgres({ log: () => {}, ...options }).then(
    async (server) => {
      servers.push(server);
      throw new Error("provisioning succeeded where it should have failed");
    },
    (e: unknown) => e,
  );
  await Promise.all(servers.map((s) => s.stop()));
  return oneLine(error);
}

function oneLine(error: unknown): string {
  expect(error).toBeInstanceOf(ProvisionError);
  const { message, stack } = error as Error;
  expect(message).not.toContain("\n");
  expect(stack).toBe(`ProvisionError: ${message}`); // no stack trace around the message
  expect(message).toMatch(/ — /); // cause — way out
  return message;
}

function fakeInstallation(name: string, modes: { initdb: number; postgres: number }, links: string[] = []) {
  const native = join(scratch, name, "native");
  mkdirSync(join(native, "bin"), { recursive: true });
  for (const [binary, mode] of Object.entries(modes)) {
    writeFileSync(join(native, "bin", binary), "#!/bin/sh\nexit 0\n");
    chmodSync(join(native, "bin", binary), mode);
  }
  writeFileSync(
    join(native, "pg-symlinks.json"),
    JSON.stringify(links.map((target) => ({ source: "native/lib/libx.so.1.0", target }))),
  );
  return native;
}

describe.skipIf(!isRoot)("as root, with the repository in a directory only root may enter", () => {
  it("copies the binaries once to a directory the postgres user can reach, reuses them, and loosens nothing", async () => {
    const privateDir = mkdtempSync(join(tmpdir(), "api-ref-private-")); // mode 0700, like `mktemp -d` or /root
    const cacheDir = mkdtempSync(join(scratch, "cache-"));
    chmodSync(cacheDir, 0o755);
    try {
      const native = join(privateDir, "repo", "native");
      cpSync(shippedNative, native, { recursive: true, verbatimSymlinks: true });
      const messages: string[] = [];
      const options = {
        env: EMBEDDED,
        log: (m: string) => messages.push(m),
        embedded: { nativeDir: native, cacheDir },
      };
      const first = await provisionPostgres(options);
      const client = new pg.Client({ connectionString: first.adminUrl });
      await client.connect();
      const { rows } = await client.query("SELECT current_setting('server_version') AS v, current_user AS u");
      await client.end();
      expect(rows[0].v).toMatch(/^18\./);
      expect(messages[0]).toMatch(/binaries copied to .*api-ref-postgres-/);
      const copy = messages[0]?.match(/copied to (\S+)/)?.[1] as string;
      const copiedAt = statSync(join(copy, ".complete")).mtimeMs;
      await first.stop();

      const second = await provisionPostgres(options);
      await second.stop();
      expect(messages[1]).toMatch(/binaries from .*api-ref-postgres-/);
      expect(statSync(join(copy, ".complete")).mtimeMs).toBe(copiedAt); // prepared once, reused
      expect(statSync(privateDir).mode & 0o777).toBe(0o700); // the user's directory is as it was
    } finally {
      rmSync(privateDir, { recursive: true, force: true });
    }
  });
});

describe("every start-up failure is one line with the way out", () => {
  it("binaries missing (the package's install script did not run)", async () => {
    const message = await failure({ env: EMBEDDED, embedded: { nativeDir: join(scratch, "nothing-here") } });
    expect(message).toMatch(/^PostgreSQL binary missing: .*initdb — .*pnpm install/);
  });

  it("binaries not executable", async () => {
    const nativeDir = fakeInstallation("not-executable", { initdb: 0o644, postgres: 0o755 });
    const message = await failure({ env: EMBEDDED, embedded: { nativeDir } });
    expect(message).toMatch(/^PostgreSQL binary not executable: .*initdb — .*pnpm install/);
  });

  it("the shared-library links the install script makes are missing", async () => {
    const nativeDir = fakeInstallation("no-links", { initdb: 0o755, postgres: 0o755 }, ["native/lib/libx.so.1"]);
    const message = await failure({ env: EMBEDDED, embedded: { nativeDir } });
    expect(message).toMatch(/^PostgreSQL library link missing: .*libx\.so\.1 — .*pnpm install/);
  });

  it("initdb fails", async () => {
    const message = await failure({
      env: EMBEDDED,
      embedded: { baseDir: scratch, initdbArgs: ["--encoding=NO_SUCH_ENCODING"] },
    });
    expect(message).toMatch(/^initdb failed \(exit \d+\): .*NO_SUCH_ENCODING.* — .*DATABASE_URL/);
  });

  it("the port is taken", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const message = await failure({ env: EMBEDDED, embedded: { baseDir: scratch, port } });
      expect(message).toBe(
        `port ${port} on 127.0.0.1 is taken by another process — free it or let the port be chosen, or set DATABASE_URL to a PostgreSQL server of your own`,
      );
    } finally {
      blocker.close();
    }
  });

  it.skipIf(!isRoot)("as root, the postgres user cannot reach the data directory", async () => {
    const closed = mkdtempSync(join(scratch, "closed-")); // 0700
    const message = await failure({ env: EMBEDDED, embedded: { baseDir: closed } });
    expect(message).toMatch(/^the postgres user cannot reach a data directory in .*closed-.* — set TMPDIR/);
  });

  it("the data directory cannot be created", async () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "");
    const message = await failure({ env: EMBEDDED, embedded: { baseDir: file } });
    expect(message).toMatch(/^cannot create the data directory in .*a-file \(ENOTDIR.*\) — set TMPDIR/);
  });

  it("DATABASE_URL is unreachable, malformed or not PostgreSQL's", async () => {
    expect(await failure({ env: { DATABASE_URL: "postgres://u:secret@127.0.0.1:1/db" } })).toBe(
      "cannot reach DATABASE_URL (postgres://u:***@127.0.0.1:1/db): connection refused — start that server or fix the URL, or unset DATABASE_URL to let the project start PostgreSQL",
    );
    expect(await failure({ env: { DATABASE_URL: "not a url" } })).toMatch(/^DATABASE_URL is not a URL — /);
    expect(await failure({ env: { DATABASE_URL: "mysql://u@h/db" } })).toMatch(
      /^DATABASE_URL must start with postgres:\/\/ or postgresql:\/\/, got mysql:\/\/ — /,
    );
    // The password is never printed, and the CLIs' check says the same.
    const error = await checkDatabaseUrl("postgres://u:secret@127.0.0.1:1/db").catch((e: unknown) => e);
    expect(oneLine(error)).not.toContain("secret");
  });

  it("DATABASE_URL's role may not create databases", async () => {
    const role = `no_createdb_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: inject("pgAdminUrl") });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw' NOCREATEDB`);
    try {
      const url = new URL(inject("pgAdminUrl"));
      url.username = role;
      url.password = "pw";
      const server = await provisionPostgres({ env: { DATABASE_URL: url.toString() }, log: () => {} });
      const error = await server.createDatabase("never_made").catch((e: unknown) => e);
      await server.stop();
      expect(oneLine(error)).toBe(
        `the role "${role}" on DATABASE_URL may not create databases, and every suite and implementation gets its own — grant it (ALTER ROLE ${role} CREATEDB) or use a role that may`,
      );
    } finally {
      await admin.query(`DROP ROLE ${role}`);
      await admin.end();
    }
  });

  it("a Docker engine answers but cannot start the image", async () => {
    const socket = join(scratch, "docker.sock");
    const engine = http.createServer((req, res) => {
      if (req.url?.endsWith("/_ping")) return res.end("OK");
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ message: "engine broken" }));
    });
    await new Promise<void>((resolve) => engine.listen(socket, resolve));
    try {
      const message = await failure({
        env: { DOCKER_HOST: `unix://${socket}`, TESTCONTAINERS_RYUK_DISABLED: "true" },
      });
      expect(message).toMatch(
        /^a Docker engine answered but could not start postgres:18: .+ — .*PG_PROVIDER=embedded .*DATABASE_URL/,
      );
    } finally {
      engine.close();
    }
  });

  it("an unknown PG_PROVIDER", async () => {
    expect(await failure({ env: { PG_PROVIDER: "docker" } })).toMatch(
      /^PG_PROVIDER must be one of env, testcontainers, embedded; got "docker" — /,
    );
  });
});

describe("the db CLIs", () => {
  const cli = (script: string, env: NodeJS.ProcessEnv) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [fileURLToPath(new URL(`../src/cli/${script}`, import.meta.url))], {
        env: { PATH: process.env.PATH, ...env },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (c: Buffer) => {
        stderr += c.toString();
      });
      child.on("close", (code) => resolve({ code, stderr }));
    });

  it("say what is wrong with DATABASE_URL in one line and exit non-zero", async () => {
    for (const script of ["seed.ts", "migrate.ts", "setup.ts"]) {
      const { code, stderr } = await cli(script, { DATABASE_URL: "postgres://u:p@127.0.0.1:1/db" });
      expect(code).toBe(2);
      expect(stderr).toBe(
        "error: cannot reach DATABASE_URL (postgres://u:***@127.0.0.1:1/db): connection refused — start that server or fix the URL, or unset DATABASE_URL to let the project start PostgreSQL\n",
      );
    }
  });
});

it("leaves no data directory behind after a failure", () => {
  expect(readdirSync(scratch).filter((f) => f.startsWith("api-ref-pg"))).toEqual([]);
});
