// What the run measures against: the seeded template on the bench's own PostgreSQL, the --target servers'
// DATABASE_URL, or nothing (framework scenarios only); ids for the scenarios and what the report says of it.
import { SEED_PASSWORD } from "@api-ref/db/fixtures";
import { type PostgresServer, prepareTemplate } from "@api-ref/db/provision";
import { seedProgressPrinter } from "@api-ref/db/seed";
import type { BenchOptions } from "../options/types.ts";
import type { Results } from "../results/schema.ts";
import { createRng, type Pools, type Rng } from "../scenarios/catalog.ts";
import { NO_ORDER_PAGES } from "../scenarios/order-pages.ts";
import { countRows, findLocalPostmaster, postgresInfo, samplePools } from "./database.ts";
import type { RunIo } from "./types.ts";

/** What the run measures against: ids for the scenarios, and what the report says about the database. */
export interface DataSource {
  pools: Pools;
  rows: Results["rows"];
  templateName: string;
  pgInfo: Results["postgres"];
  postmaster?: number;
}

const NO_POOLS: Pools = {
  userIds: [],
  productIds: [],
  orderIds: [],
  logins: [],
  password: SEED_PASSWORD,
  orderProductIds: [],
  jwtSecret: "",
  orderPages: NO_ORDER_PAGES,
};

/**
 * The data source at one of the run's scales; `jwtSecret` is the servers' JWT_SECRET, which the scenarios sign their
 * callers' tokens with.
 */
export async function prepareData(
  options: BenchOptions,
  scale: number,
  server: PostgresServer | undefined,
  seed: number,
  jwtSecret: string,
  io: RunIo,
): Promise<DataSource> {
  const rng = createRng(seed);
  if (server) return seededTemplate(options, scale, server, rng, jwtSecret, io);
  const url = process.env.DATABASE_URL;
  if (!url) {
    const pgInfo = { provider: "none (framework scenarios only)", version: "", settings: {} };
    return {
      pools: NO_POOLS,
      rows: { users: 0, products: 0, orders: 0 },
      templateName: "",
      pgInfo,
    } satisfies DataSource;
  }
  const rows = await countRows(url);
  io.log(
    `--target: ids drawn from ${rows.users} users, ${rows.products} products, ${rows.orders} orders in DATABASE_URL`,
  );
  const pgInfo = { provider: "the target servers' database (DATABASE_URL)", ...(await postgresInfo(url)) };
  return { pools: await samplePools(url, rng, jwtSecret), rows, templateName: "", pgInfo } satisfies DataSource;
}

/** The bench's own PostgreSQL: the template seeded at `scale` (one per scale in a growth run), and its postmaster. */
async function seededTemplate(
  options: BenchOptions,
  scale: number,
  server: PostgresServer,
  rng: Rng,
  jwtSecret: string,
  io: RunIo,
): Promise<DataSource> {
  const started = performance.now();
  const name = options.scales.length > 1 ? `bench_template_${String(scale).replace(".", "_")}` : "bench_template";
  // From scale 10 seeding takes seconds (about 25 s at 100): show its phases as pnpm db:seed does.
  const progress = scale >= 10 ? seedProgressPrinter() : undefined;
  const template = await prepareTemplate(server, { name, scale, ...(progress ? { progress } : {}) });
  const { users, products, orders } = template.counts;
  const ms = Math.round(performance.now() - started);
  io.log(`seeded ${users} users, ${products} products, ${orders} orders (scale ${scale}) in ${ms} ms`);
  const postmaster = await findLocalPostmaster(server.adminUrl);
  return {
    pools: await samplePools(template.url, rng, jwtSecret),
    rows: template.counts,
    templateName: template.name,
    pgInfo: { provider: server.provider, ...(await postgresInfo(server.adminUrl)) },
    ...(postmaster ? { postmaster } : {}),
  };
}
