// Generates the Prisma client into src/generated/prisma (run on install and by `pnpm db:generate`).
// `prisma generate` does not use the schema engine, but the CLI insists on locating one and downloads it
// when it is missing; where that download cannot be reached, any existing executable satisfies the check.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}
const result = spawnSync("prisma", ["generate"], { cwd: packageDir, env, stdio: "inherit", shell: false });
if (result.error) {
  console.error(`could not run prisma generate: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
