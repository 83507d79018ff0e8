// pnpm db:seed [--scale N] [--reset] — writes the deterministic data set to DATABASE_URL.
import { DatabaseNotEmptyError, parseScale, seedDatabase } from "../seed.ts";
import { fail, parseCli, requireDatabaseUrl } from "./args.ts";

const usage = `usage: pnpm db:seed [--scale N] [--reset]
  --scale N   multiply the default 1,000 users / 5,000 products / 10,000 orders by N (default 1, at most 100)
  --reset     delete existing users, products, orders and idempotency keys first`;
const { values } = parseCli(usage, { scale: { type: "string" }, reset: { type: "boolean" } });
if (values.help) {
  console.log(usage);
  process.exit(0);
}
let scale = 1;
try {
  if (values.scale !== undefined) scale = parseScale(values.scale);
} catch (error) {
  fail(`${(error as Error).message}\n\n${usage}`, 2);
}
const url = await requireDatabaseUrl();
try {
  const started = Date.now();
  const counts = await seedDatabase(url, { scale, reset: values.reset === true });
  console.log(
    `seeded ${counts.users} users, ${counts.products} products, ${counts.orders} orders in ${Date.now() - started} ms`,
  );
} catch (error) {
  fail((error as Error).message, error instanceof DatabaseNotEmptyError ? 3 : 1);
}
