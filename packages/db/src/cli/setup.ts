// pnpm db:setup — gets DATABASE_URL ready for the apps in one step: applies the committed migrations (as
// pnpm db:migrate), then loads the deterministic seed if the database holds no data yet and leaves it alone if it
// does (as pnpm db:seed --if-empty). What the db-setup image (packages/db/Dockerfile) runs before every start.
import { applyMigrations } from "../migrate.ts";
import { DatabaseNotEmptyError, seedDatabase } from "../seed.ts";
import { fail, parseCli, requireDatabaseUrl } from "./args.ts";

const usage = "usage: pnpm db:setup   (reads DATABASE_URL): pnpm db:migrate, then pnpm db:seed --if-empty";
const { values } = parseCli(usage, {});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const url = await requireDatabaseUrl();
try {
  const { applied, alreadyApplied } = await applyMigrations(url);
  for (const name of applied) console.log(`applied ${name}`);
  console.log(`${applied.length} applied, ${alreadyApplied.length} already applied`);
  const started = Date.now();
  const counts = await seedDatabase(url);
  console.log(
    `seeded ${counts.users} users, ${counts.products} products, ${counts.orders} orders in ${Date.now() - started} ms`,
  );
} catch (error) {
  if (!(error instanceof DatabaseNotEmptyError)) fail((error as Error).message);
  console.log(`not seeded: the database already holds ${error.rows} rows`);
}
