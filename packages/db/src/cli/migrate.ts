// pnpm db:migrate — applies the committed migrations to DATABASE_URL without the Prisma schema engine.
import { applyMigrations } from "../migrate.ts";
import { fail, parseCli, requireDatabaseUrl } from "./args.ts";

const usage = "usage: pnpm db:migrate   (reads DATABASE_URL)";
const { values } = parseCli(usage, {});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
try {
  const { applied, alreadyApplied } = await applyMigrations(await requireDatabaseUrl());
  for (const name of applied) console.log(`applied ${name}`);
  console.log(`${applied.length} applied, ${alreadyApplied.length} already applied`);
} catch (error) {
  fail((error as Error).message);
}
