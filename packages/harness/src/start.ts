// pnpm start <name> [--port N] [--host H] — starts one implementation alone, as in production: built first if it
// compiles, NODE_ENV=production, on the database DATABASE_URL names (migrated and seeded beforehand with
// pnpm db:migrate and pnpm db:seed; nothing is provisioned). Prints its URL once it answers /health, and runs
// until Ctrl-C or SIGTERM, which it passes on; exits with the app's exit code.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { implementationChoices, implementationNamed } from "./command-line.ts";
import { type Implementation, REPO_ROOT } from "./implementations.ts";
import { build, freePort, waitUntilHealthy } from "./launcher.ts";

const usage = `usage: pnpm start <implementation> [--port N] [--host HOST]
  ${implementationChoices()}
  reads DATABASE_URL (required: a migrated and seeded database), JWT_SECRET (required, 32+ bytes),
  PORT (default 3000; 0 picks a free port), HOST (default 127.0.0.1), LOG_LEVEL; --port and --host override
  PORT and HOST`;

/** A usage error: one line (then the usage, for a mistake in the arguments), exit 2. */
function usageError(message: string, showUsage = true): never {
  process.stderr.write(`error: ${message}\n${showUsage ? `\n${usage}\n` : ""}`);
  process.exit(2);
}

/** Any other error: one line, exit 1. */
function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

let impl: Implementation;
let port: number;
let host: string;
let databaseUrl: string;
let jwtSecret: string;
{
  let parsed: { values: { port?: string; host?: string; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      options: { port: { type: "string" }, host: { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    usageError((error as Error).message);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  const [name, ...extra] = parsed.positionals;
  if (extra.length > 0) usageError(`unexpected argument "${extra[0]}"`);
  try {
    impl = implementationNamed(name);
  } catch (error) {
    usageError((error as Error).message);
  }
  const rawPort = parsed.values.port ?? process.env.PORT ?? "3000";
  port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    usageError(`the port (--port or PORT) must be an integer 0–65535, got "${rawPort}"`, false);
  }
  host = parsed.values.host ?? (process.env.HOST || "127.0.0.1");
  databaseUrl = process.env.DATABASE_URL ?? "";
  if (!databaseUrl) {
    usageError(
      "DATABASE_URL is not set: point it at a PostgreSQL database prepared with pnpm db:migrate and pnpm db:seed",
      false,
    );
  }
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    usageError("DATABASE_URL must be a postgres:// connection string", false);
  }
  jwtSecret = process.env.JWT_SECRET ?? "";
  // RFC 7518 §3.2, as every implementation checks it (each also refuses the repository's placeholders).
  if (Buffer.byteLength(jwtSecret) < 32) {
    usageError("JWT_SECRET is not set or shorter than 32 bytes (e.g. `openssl rand -base64 32`)", false);
  }
}

const dir = join(REPO_ROOT, impl.dir);
// A row whose runtime has no binary for this platform (Bun, Deno): why, in one line.
if (impl.unavailable) fail(`${impl.name} cannot run here: ${impl.unavailable}`);
if (impl.language === "python" && !existsSync(impl.start.command)) {
  fail(`${impl.name} needs its Python environment: run bash ${impl.dir}/scripts/setup.sh first`);
}
if (impl.build) {
  process.stderr.write(`${impl.name}: building (${impl.build.command} ${impl.build.args.join(" ")})\n`);
  // The error includes the build's own output, which is what explains a failed build.
  const built = await build(impl);
  if (!built.ok) fail(built.error ?? `building ${impl.name} failed`);
}
if (port === 0) port = await freePort();

const app = spawn(impl.start.command, impl.start.args, {
  cwd: dir,
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    ...impl.start.env,
    PORT: String(port),
    HOST: host,
    DATABASE_URL: databaseUrl,
    JWT_SECRET: jwtSecret,
  },
});
let exitCode: number | null | undefined;
const exited = new Promise<number | null>((resolve) =>
  app.once("exit", (code, signal) => {
    exitCode = code ?? (signal ? 128 : 1);
    resolve(exitCode);
  }),
);
app.once("error", (error) => fail(`${impl.name} could not be started: ${error.message}`));
// SIGTERM is passed on. Ctrl-C reaches the app directly (it is in the terminal's process group): passing SIGINT on
// as well would deliver it twice, and a second SIGINT ends an app in the middle of its graceful shutdown.
process.on("SIGTERM", () => app.kill("SIGTERM"));
process.on("SIGINT", () => {});

// The address to reach it at: a wildcard host is reachable on loopback.
const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
const url = `http://${reachable}:${port}`;
const health = await waitUntilHealthy(url, { timeoutMs: 60_000, intervalMs: 50, exited: () => exitCode !== undefined });
if (health === "exited") fail(`${impl.name} exited with code ${exitCode} before it answered GET /health`);
if (health === "timeout") {
  app.kill("SIGTERM");
  fail(`${impl.name} did not answer GET ${url}/health within 60 s`);
}
console.log(`${impl.name} listening on ${url}`);
// /health does not touch the database; /ready does. Said once, for a server that will answer every query with 503.
try {
  const ready = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(5000) });
  await ready.arrayBuffer();
  if (ready.status !== 200) {
    process.stderr.write(`warning: GET ${url}/ready answered ${ready.status}: is the database at DATABASE_URL up?\n`);
  }
} catch {
  // the app itself reports what went wrong
}
process.exit((await exited) ?? 0);
