// The deterministic data set every implementation is tested and benchmarked on. The same scale always yields
// the same rows, ids and timestamps included: all randomness comes from one PRNG with a fixed seed.
import pg from "pg";
import {
  FIXTURE_TIME,
  type FixtureRole,
  fixtureOrders,
  fixtureProducts,
  fixtureUsers,
  SEED_PASSWORD,
} from "./fixtures.ts";
import { hashPassword } from "./password.ts";

export const BASE_COUNTS = { users: 1000, products: 5000, orders: 10000 } as const;
export const PRNG_SEED = 0x5eed_2025;
export const MAX_SCALE = 100;

/** Parses a --scale value; throws a message fit for a user on anything but a positive number ≤ MAX_SCALE. */
export function parseScale(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") throw new Error("--scale needs a value, e.g. --scale 2");
  const scale = Number(raw);
  if (!Number.isFinite(scale)) throw new Error(`--scale must be a number, got "${raw}"`);
  if (scale <= 0) throw new Error(`--scale must be greater than 0, got ${raw}`);
  if (scale > MAX_SCALE) throw new Error(`--scale must be at most ${MAX_SCALE}, got ${raw}`);
  const counts = countsFor(scale);
  if (counts.users < 2 || counts.products < 4 || counts.orders < 4) {
    throw new Error(`--scale ${raw} is too small to hold the fixture rows`);
  }
  return scale;
}

export function countsFor(scale: number) {
  return {
    users: Math.round(BASE_COUNTS.users * scale),
    products: Math.round(BASE_COUNTS.products * scale),
    orders: Math.round(BASE_COUNTS.orders * scale),
  };
}

/** sfc32: a small, fast PRNG with a 128-bit state; identical output on every platform. */
export function createRng(seed: number) {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    bytes: (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256))),
    uuid() {
      const bytes = this.bytes(16);
      bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
      bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 9562 variant
      const hex = bytes.toString("hex");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}

export interface SeedUser {
  id: string;
  email: string;
  name: string;
  role: FixtureRole;
  passwordHash: string;
  createdAt: string;
  updatedAt: string;
}
export interface SeedProduct {
  id: string;
  name: string;
  description: string | null;
  priceCents: number;
  stock: number;
  createdAt: string;
  updatedAt: string;
}
export interface SeedOrder {
  id: string;
  userId: string;
  productId: string;
  quantity: number;
  unitPriceCents: number;
  totalCents: number;
  status: "pending" | "shipped" | "delivered" | "cancelled";
  createdAt: string;
  updatedAt: string;
}
export interface SeedData {
  users: SeedUser[];
  products: SeedProduct[];
  orders: SeedOrder[];
}

const FIRST = [
  "Ada",
  "Alan",
  "Barbara",
  "Claude",
  "Dennis",
  "Edsger",
  "Frances",
  "Grace",
  "Hedy",
  "Ivan",
  "Joan",
  "Ken",
  "Linus",
  "Margaret",
  "Niklaus",
  "Radia",
  "Sophie",
  "Tim",
  "Ursula",
  "Whitfield",
];
const LAST = [
  "Lovelace",
  "Turing",
  "Liskov",
  "Shannon",
  "Ritchie",
  "Dijkstra",
  "Allen",
  "Hopper",
  "Lamarr",
  "Sutherland",
  "Clarke",
  "Thompson",
  "Torvalds",
  "Hamilton",
  "Wirth",
  "Perlman",
  "Wilson",
  "Berners-Lee",
  "Franklin",
  "Diffie",
];
const ADJECTIVES = [
  "Ergonomic",
  "Rustic",
  "Sleek",
  "Compact",
  "Heavy-Duty",
  "Handmade",
  "Recycled",
  "Smart",
  "Vintage",
  "Wireless",
  "Modular",
  "Portable",
];
const MATERIALS = ["Oak", "Steel", "Cotton", "Granite", "Bamboo", "Copper", "Wool", "Glass", "Leather", "Ceramic"];
const NOUNS = [
  "Chair",
  "Lamp",
  "Keyboard",
  "Kettle",
  "Backpack",
  "Desk",
  "Mug",
  "Headphones",
  "Notebook",
  "Bottle",
  "Shelf",
  "Clock",
];

const HOUR = 3_600_000;
const BASE_TIME = Date.parse("2025-01-01T00:00:00.000Z");
const DAYS_365 = 365 * 24;

/** Generates the whole data set in memory; pure and deterministic for a given scale. */
export async function generateSeed(scale = 1): Promise<SeedData> {
  const counts = countsFor(scale);
  const rng = createRng(PRNG_SEED);
  // One hash shared by every seeded user keeps seeding fast (scrypt is deliberately slow); its salt comes from
  // the PRNG so the stored value is deterministic. Users who register through the API get their own salt.
  const passwordHash = await hashPassword(SEED_PASSWORD, rng.bytes(16));
  // Timestamps fall on whole hours, so that rows share a createdAt and the id tie-break is exercised.
  const hourAfter = (from: number, maxHours: number) => new Date(from + rng.int(1, maxHours) * HOUR);

  const users: SeedUser[] = Object.values(fixtureUsers).map((u) => ({
    ...u,
    passwordHash,
    createdAt: FIXTURE_TIME,
    updatedAt: FIXTURE_TIME,
  }));
  const fixtureUserCount = users.length;
  for (let i = users.length; i < counts.users; i++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const createdAt = hourAfter(BASE_TIME, DAYS_365).toISOString();
    users.push({
      id: rng.uuid(),
      email: `${first}.${last}.${i}@example.com`.toLowerCase(),
      name: `${first} ${last}`,
      role: "customer",
      passwordHash,
      createdAt,
      updatedAt: createdAt,
    });
  }

  const products: SeedProduct[] = Object.values(fixtureProducts).map((p) => ({
    ...p,
    createdAt: FIXTURE_TIME,
    updatedAt: FIXTURE_TIME,
  }));
  const fixtureProductCount = products.length;
  for (let i = products.length; i < counts.products; i++) {
    const name = `${rng.pick(ADJECTIVES)} ${rng.pick(MATERIALS)} ${rng.pick(NOUNS)} ${i}`;
    const createdAt = hourAfter(BASE_TIME, DAYS_365).toISOString();
    products.push({
      id: rng.uuid(),
      name,
      description: rng.next() < 0.25 ? null : `The ${name.toLowerCase()}, batch ${rng.int(1, 999)}.`,
      priceCents: rng.int(1, 2000) * 50 - 1,
      stock: rng.next() < 0.1 ? 0 : rng.int(1, 1000),
      createdAt,
      updatedAt: createdAt,
    });
  }

  const fixtureOrderTime = Date.parse(FIXTURE_TIME) + HOUR;
  const orderedProduct = fixtureProducts.ordered;
  const orders: SeedOrder[] = Object.values(fixtureOrders).map((o) => ({
    id: o.id,
    userId: fixtureUsers.buyer.id,
    productId: orderedProduct.id,
    quantity: o.quantity,
    unitPriceCents: orderedProduct.priceCents,
    totalCents: orderedProduct.priceCents * o.quantity,
    status: o.status,
    createdAt: new Date(fixtureOrderTime).toISOString(),
    updatedAt: new Date(fixtureOrderTime).toISOString(),
  }));
  const statuses = [
    "pending",
    "pending",
    "pending",
    "pending",
    "shipped",
    "shipped",
    "delivered",
    "delivered",
    "delivered",
    "cancelled",
  ] as const;
  for (let i = orders.length; i < counts.orders; i++) {
    const user = users[rng.int(fixtureUserCount, users.length - 1)] as SeedUser;
    const product = products[rng.int(fixtureProductCount, products.length - 1)] as SeedProduct;
    const quantity = rng.int(1, 5);
    const status = rng.pick(statuses);
    const placed = hourAfter(Math.max(Date.parse(user.createdAt), Date.parse(product.createdAt)), 30 * 24);
    const updated = status === "pending" ? placed : hourAfter(placed.getTime(), 7 * 24);
    orders.push({
      id: rng.uuid(),
      userId: user.id,
      productId: product.id,
      quantity,
      unitPriceCents: product.priceCents,
      totalCents: product.priceCents * quantity,
      status,
      createdAt: placed.toISOString(),
      updatedAt: updated.toISOString(),
    });
  }
  return { users, products, orders };
}

const CHUNK = 5000;

/** One table's column: its name, its PostgreSQL type, and the value of a row for it. */
type Column<T> = [name: string, type: string, value: (row: T) => unknown];

/** Inserts `rows` into `table`, CHUNK rows a statement, each column sent as one array and unnested. */
async function insertChunks<T>(client: pg.ClientBase, table: string, rows: T[], columns: Column<T>[]) {
  const names = columns.map(([name]) => name).join(", ");
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  const sql = `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays})`;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const arraysOfChunk = columns.map(([, , value]) => chunk.map(value));
    await client.query(sql, arraysOfChunk);
  }
}

/** The columns of each seeded table, written once for both ways of loading the seed (insertChunks and seedSql). */
const USER_COLUMNS: Column<SeedUser>[] = [
  ["id", "uuid", (u) => u.id],
  ["email", "varchar", (u) => u.email],
  ["name", "varchar", (u) => u.name],
  ["role", "user_role", (u) => u.role],
  ["password_hash", "varchar", (u) => u.passwordHash],
  ["created_at", "timestamptz", (u) => u.createdAt],
  ["updated_at", "timestamptz", (u) => u.updatedAt],
];
const PRODUCT_COLUMNS: Column<SeedProduct>[] = [
  ["id", "uuid", (p) => p.id],
  ["name", "varchar", (p) => p.name],
  ["description", "varchar", (p) => p.description],
  ["price_cents", "int", (p) => p.priceCents],
  ["stock", "int", (p) => p.stock],
  ["created_at", "timestamptz", (p) => p.createdAt],
  ["updated_at", "timestamptz", (p) => p.updatedAt],
];
const ORDER_COLUMNS: Column<SeedOrder>[] = [
  ["id", "uuid", (o) => o.id],
  ["user_id", "uuid", (o) => o.userId],
  ["product_id", "uuid", (o) => o.productId],
  ["quantity", "int", (o) => o.quantity],
  ["unit_price_cents", "int", (o) => o.unitPriceCents],
  ["total_cents", "bigint", (o) => o.totalCents],
  ["status", "order_status", (o) => o.status],
  ["created_at", "timestamptz", (o) => o.createdAt],
  ["updated_at", "timestamptz", (o) => o.updatedAt],
];

/** A value as an SQL literal: NULL, a number, or a string in single quotes (standard_conforming_strings). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error(`seed SQL: ${value} is not an integer`);
    return String(value);
  }
  return `'${String(value).replaceAll("'", "''")}'`;
}

/** `rows` as INSERT statements of at most `perStatement` rows each, every value cast to its column's type. */
function* insertStatements<T>(table: string, rows: T[], columns: Column<T>[], perStatement = 1000) {
  const names = columns.map(([name]) => name).join(", ");
  for (let i = 0; i < rows.length; i += perStatement) {
    const values = rows
      .slice(i, i + perStatement)
      .map((row) => `(${columns.map(([, type, value]) => `${literal(value(row))}::${type}`).join(", ")})`);
    yield `INSERT INTO ${table} (${names}) VALUES\n${values.join(",\n")};\n`;
  }
}

/**
 * The same data set as seedDatabase, as one plain SQL script for stacks that load it without Node
 * (`psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f seed.sql`): one transaction of INSERT statements, no psql
 * meta-command, on a database migrated with the committed migrations. With `reset`, it empties the four tables
 * first; without, loading it into a seeded database fails on the first duplicate id and changes nothing.
 */
export async function* seedSql(options: SeedOptions = {}): AsyncGenerator<string> {
  const scale = options.scale ?? 1;
  const data = await generateSeed(scale);
  yield `-- The deterministic seed of api-ref at scale ${scale}: ${data.users.length} users, ${data.products.length} products, ${data.orders.length} orders.
-- Generated by \`pnpm db:seed --sql${scale === 1 ? "" : ` --scale ${scale}`}${options.reset ? " --reset" : ""}\`; load it into a database migrated with
-- \`pnpm db:migrate\` (or packages/db/prisma/migrations applied in order): psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f seed.sql
BEGIN;
`;
  if (options.reset) yield "TRUNCATE orders, products, users, idempotency_keys;\n";
  yield* insertStatements("users", data.users, USER_COLUMNS);
  yield* insertStatements("products", data.products, PRODUCT_COLUMNS);
  yield* insertStatements("orders", data.orders, ORDER_COLUMNS);
  yield "COMMIT;\nANALYZE users, products, orders;\n";
}

export interface SeedOptions {
  scale?: number;
  /** Delete existing rows first (default false: refuse to seed a database that holds data). */
  reset?: boolean;
}

export class DatabaseNotEmptyError extends Error {
  /** Users, products and orders already there. */
  readonly rows: number;
  constructor(rows: number) {
    super(`the database already holds ${rows} rows; pass --reset to replace them`);
    this.rows = rows;
  }
}

/** Writes the data set in one transaction. Refuses a non-empty database unless `reset` is set. */
export async function seedDatabase(connectionString: string, options: SeedOptions = {}) {
  const data = await generateSeed(options.scale ?? 1);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("BEGIN");
    if (options.reset) {
      await client.query("TRUNCATE orders, products, users, idempotency_keys");
    } else {
      const { rows } = await client.query<{ n: number }>(
        "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM products) + (SELECT count(*) FROM orders) AS n",
      );
      if (Number(rows[0]?.n) > 0) {
        throw new DatabaseNotEmptyError(Number(rows[0]?.n));
      }
    }
    await insertChunks(client, "users", data.users, USER_COLUMNS);
    await insertChunks(client, "products", data.products, PRODUCT_COLUMNS);
    await insertChunks(client, "orders", data.orders, ORDER_COLUMNS);
    await client.query("COMMIT");
    await client.query("ANALYZE users, products, orders");
    return { users: data.users.length, products: data.products.length, orders: data.orders.length };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/** Row counts and an MD5 over every row of the three tables in id order: equal checksums, equal data. */
export async function checksumDatabase(connectionString: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SET TIME ZONE 'UTC'"); // row text includes timestamps, rendered in the session zone
    const { rows } = await client.query<{ users: string; products: string; orders: string; checksum: string }>(`
      SELECT (SELECT count(*) FROM users) AS users,
             (SELECT count(*) FROM products) AS products,
             (SELECT count(*) FROM orders) AS orders,
             md5(concat_ws('|',
               (SELECT string_agg(t::text, ',' ORDER BY t.id) FROM users t),
               (SELECT string_agg(t::text, ',' ORDER BY t.id) FROM products t),
               (SELECT string_agg(t::text, ',' ORDER BY t.id) FROM orders t))) AS checksum`);
    const row = rows[0];
    if (!row) throw new Error("checksum query returned no row");
    return {
      users: Number(row.users),
      products: Number(row.products),
      orders: Number(row.orders),
      checksum: row.checksum,
    };
  } finally {
    await client.end();
  }
}
