// pnpm db:setup — gets DATABASE_URL ready for the apps in one step, safe to run before every start (what the
// db-setup image, packages/db/Dockerfile, runs): applies the committed migrations (as pnpm db:migrate); with
// SEED_DEMO_DATA=true, loads the deterministic seed into an empty database (as pnpm db:seed --if-empty: demo data,
// every user's password published in the repository, so only when asked); with ADMIN_EMAIL, makes that account an
// admin whose password is ADMIN_PASSWORD (as pnpm db:create-admin); with API_DB_PASSWORD, creates the role the APIs
// connect as (api_app: rows only, no DDL).
import { adminAccountProblem, ensureAdmin } from "../admin.ts";
import { APP_ROLE, ensureAppRole } from "../app-role.ts";
import { applyMigrations } from "../migrate.ts";
import { DatabaseNotEmptyError, seedDatabase } from "../seed.ts";
import { fail, parseCli, requireDatabaseUrl } from "./args.ts";

const usage = `usage: pnpm db:setup   (reads DATABASE_URL): pnpm db:migrate, then, when asked:
  SEED_DEMO_DATA=true   pnpm db:seed --if-empty: the demo data set (its users' password is published: never in production)
  ADMIN_EMAIL=E ADMIN_PASSWORD=P [ADMIN_NAME=N]   pnpm db:create-admin --email E: the first admin
  API_DB_PASSWORD=P     the role the APIs connect as, ${APP_ROLE}: rows of the API's tables only, no DDL`;
const { values } = parseCli(usage, {});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const demoData = process.env.SEED_DEMO_DATA ?? "";
if (!["", "true", "false"].includes(demoData)) fail(`SEED_DEMO_DATA must be true or false, got "${demoData}"`, 2);
const admin = process.env.ADMIN_EMAIL
  ? { email: process.env.ADMIN_EMAIL, name: process.env.ADMIN_NAME || "Admin", password: process.env.ADMIN_PASSWORD }
  : undefined;
const adminProblem = admin && adminAccountProblem(admin);
if (adminProblem) fail(adminProblem, 2);
const url = await requireDatabaseUrl();

async function loadDemoData() {
  const started = Date.now();
  try {
    const counts = await seedDatabase(url);
    console.log(
      `seeded ${counts.users} users, ${counts.products} products, ${counts.orders} orders in ${Date.now() - started} ms`,
    );
  } catch (error) {
    if (!(error instanceof DatabaseNotEmptyError)) throw error;
    console.log(`not seeded: the database already holds ${error.rows} rows`);
  }
}

try {
  const { applied, alreadyApplied } = await applyMigrations(url);
  for (const name of applied) console.log(`applied ${name}`);
  console.log(`${applied.length} applied, ${alreadyApplied.length} already applied`);
  if (demoData === "true") await loadDemoData();
  else console.log("no demo data (SEED_DEMO_DATA=true loads it into an empty database)");
  if (process.env.API_DB_PASSWORD) {
    await ensureAppRole(url, process.env.API_DB_PASSWORD);
    console.log(`role ${APP_ROLE}: reads and writes the API's tables, nothing else`);
  }
  if (admin?.password) {
    const outcome = await ensureAdmin(url, { ...admin, password: admin.password });
    console.log(`${admin.email.toLowerCase()}: ${outcome === "kept" ? "already an admin" : `admin ${outcome}`}`);
  }
} catch (error) {
  fail((error as Error).message);
}
