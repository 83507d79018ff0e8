// pnpm db:seed [--scale N] [--reset | --if-empty] — writes the deterministic data set to DATABASE_URL, printing its
// progress on stderr (a line per phase; redrawn in place on a terminal).
// pnpm db:seed --sql [--scale N] [--reset] > seed.sql — prints it as plain SQL instead (no database needed).
import { once } from "node:events";
import { DatabaseNotEmptyError, MAX_SCALE, parseScale, seedDatabase, seedSql } from "../seed.ts";
import { seedProgressPrinter } from "../seed-progress.ts";
import { fail, parseCli, requireDatabaseUrl } from "./args.ts";

const usage = `usage: pnpm db:seed [--scale N] [--reset | --if-empty] [--sql]
  --scale N   multiply the default 1,000 users / 5,000 products / 10,000 orders by N (default 1, at most ${MAX_SCALE})
  --reset     delete existing users, products, orders and idempotency keys first
  --if-empty  on a database that already holds data, say so and exit 0 without writing (default: exit 3)
  --sql       print the seed as plain SQL on stdout instead of writing it to DATABASE_URL, for loading with psql
              into a database migrated with pnpm db:migrate (pnpm db:seed --sql > seed.sql)
Progress goes to stderr, a line per phase with its own time (seed: orders 400,000/1,000,000 (40%) 12.3 s),
redrawn in place on a terminal.`;
const { values } = parseCli(usage, {
  scale: { type: "string" },
  reset: { type: "boolean" },
  sql: { type: "boolean" },
  "if-empty": { type: "boolean" },
});
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
const ifEmpty = values["if-empty"] === true;
if (ifEmpty && values.reset) fail(`--if-empty and --reset contradict each other: pick one\n\n${usage}`, 2);
if (ifEmpty && values.sql) fail(`--if-empty needs a database to look at; --sql writes to none\n\n${usage}`, 2);
if (values.sql) {
  // A reader that stops early (`| head`) is not an error.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));
  for await (const chunk of seedSql({ scale, reset: values.reset === true })) {
    if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
  }
  // No process.exit() here: it would drop what a pipe has not taken yet (the script's last statements).
} else {
  const url = await requireDatabaseUrl();
  try {
    const started = Date.now();
    const counts = await seedDatabase(url, { scale, reset: values.reset === true, progress: seedProgressPrinter() });
    console.log(
      `seeded ${counts.users} users, ${counts.products} products, ${counts.orders} orders in ${Date.now() - started} ms`,
    );
  } catch (error) {
    if (ifEmpty && error instanceof DatabaseNotEmptyError) {
      console.log(`not seeded: the database already holds ${error.rows} rows (--if-empty)`);
    } else fail((error as Error).message, error instanceof DatabaseNotEmptyError ? 3 : 1);
  }
}
