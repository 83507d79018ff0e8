// The deterministic data set every implementation is tested and benchmarked on. The same scale always yields
// the same rows, ids and timestamps included: all randomness comes from one PRNG with a fixed seed.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import {
  FIXTURE_TIME,
  type FixtureRole,
  fixtureOrders,
  fixtureProducts,
  fixtureUsers,
  SEED_PASSWORD,
} from "./fixtures.ts";
import { hashPassword } from "./password.ts";
import type { SeedPhase, SeedProgress } from "./seed-progress.ts";

// What a seed reports as it runs, and the progress line that pnpm db:seed prints from it (for other commands
// that seed, such as the bench's template).
export {
  formatSeedStep,
  SEED_PHASES,
  type SeedPhase,
  type SeedProgress,
  type SeedStep,
  seedProgressPrinter,
} from "./seed-progress.ts";

export const BASE_COUNTS = { users: 1000, products: 5000, orders: 10000 } as const;
export const PRNG_SEED = 0x5eed_2025;
export const MAX_SCALE = 1000;

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

/** The character codes of the lower-case hex digits. */
const HEX_DIGITS = Buffer.from("0123456789abcdef", "latin1");

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
  const uuidText = Buffer.alloc(36);
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    bytes: (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256))),
    /**
     * A version-4 UUID from 16 draws, one a byte, as `bytes(16)` would draw them; its text written into one buffer
     * and read out once, which at a million and a half ids costs far less than a Buffer and a string per byte.
     */
    uuid() {
      let at = 0;
      for (let i = 0; i < 16; i++) {
        let byte = Math.floor(next() * 256);
        // The version (4) and the variant (RFC 9562's) overwrite some of the drawn bits.
        if (i === 6) byte = (byte & 0x0f) | 0x40;
        else if (i === 8) byte = (byte & 0x3f) | 0x80;
        uuidText[at++] = HEX_DIGITS[byte >> 4] as number;
        uuidText[at++] = HEX_DIGITS[byte & 15] as number;
        if (i === 3 || i === 5 || i === 7 || i === 9) uuidText[at++] = 0x2d; // -
      }
      return uuidText.toString("latin1", 0, 36);
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

/**
 * The data set, drawn in one fixed order (the password's salt, users, products, orders) from one PRNG: `users()`
 * and `products()` must each be run to the end, in that order, before `orders()`, which draws its rows as they are
 * read, so that a million orders are never held in memory at once. Identical rows to every earlier version's.
 */
export async function seedGenerator(scale = 1) {
  const counts = countsFor(scale);
  const rng = createRng(PRNG_SEED);
  // One hash shared by every seeded user keeps seeding fast (scrypt is deliberately slow); its salt comes from
  // the PRNG so the stored value is deterministic. Users who register through the API get their own salt.
  const passwordHash = await hashPassword(SEED_PASSWORD, rng.bytes(16));
  // Timestamps fall on whole hours from BASE_TIME on, so that rows share a createdAt and the id tie-break is
  // exercised: some ten thousand distinct instants, each formatted once.
  const isoTexts: string[] = [];
  const iso = (ms: number) => {
    const hour = (ms - BASE_TIME) / HOUR;
    let text = isoTexts[hour];
    if (text === undefined) {
      text = new Date(ms).toISOString();
      if (Number.isInteger(hour) && hour >= 0) isoTexts[hour] = text;
    }
    return text;
  };
  const hourAfter = (from: number, maxHours: number) => from + rng.int(1, maxHours) * HOUR;
  const fixtureTime = Date.parse(FIXTURE_TIME);

  // What an order needs of the users and products drawn before it (not the rows: at scale 1,000, six million of
  // them would not fit in Node's heap).
  const userIds: string[] = [];
  const userTimes: number[] = [];
  const productIds: string[] = [];
  const productPrices: number[] = [];
  const productTimes: number[] = [];
  const fixtureUserCount = Object.keys(fixtureUsers).length;
  const fixtureProductCount = Object.keys(fixtureProducts).length;
  // Which table may be drawn next: each one's draws continue the PRNG where the last table's ended.
  let nextTable: "users" | "products" | "orders" | "none" = "users";
  const mustBe = (table: typeof nextTable) => {
    if (nextTable !== table) throw new Error(`seedGenerator: ${table} drawn out of order (${nextTable} first)`);
  };

  function* drawUsers(): Generator<SeedUser> {
    mustBe("users");
    for (const u of Object.values(fixtureUsers)) {
      const user = { ...u, passwordHash, createdAt: FIXTURE_TIME, updatedAt: FIXTURE_TIME };
      userIds.push(user.id);
      userTimes.push(fixtureTime);
      yield user;
    }
    for (let i = userIds.length; i < counts.users; i++) {
      const first = rng.pick(FIRST);
      const last = rng.pick(LAST);
      const created = hourAfter(BASE_TIME, DAYS_365);
      const createdAt = iso(created);
      const user: SeedUser = {
        id: rng.uuid(),
        email: `${first}.${last}.${i}@example.com`.toLowerCase(),
        name: `${first} ${last}`,
        role: "customer",
        passwordHash,
        createdAt,
        updatedAt: createdAt,
      };
      userIds.push(user.id);
      userTimes.push(created);
      yield user;
    }
    nextTable = "products";
  }

  function* drawProducts(): Generator<SeedProduct> {
    mustBe("products");
    for (const p of Object.values(fixtureProducts)) {
      const product = { ...p, createdAt: FIXTURE_TIME, updatedAt: FIXTURE_TIME };
      productIds.push(product.id);
      productPrices.push(product.priceCents);
      productTimes.push(fixtureTime);
      yield product;
    }
    for (let i = productIds.length; i < counts.products; i++) {
      const name = `${rng.pick(ADJECTIVES)} ${rng.pick(MATERIALS)} ${rng.pick(NOUNS)} ${i}`;
      const created = hourAfter(BASE_TIME, DAYS_365);
      const createdAt = iso(created);
      const product: SeedProduct = {
        id: rng.uuid(),
        name,
        description: rng.next() < 0.25 ? null : `The ${name.toLowerCase()}, batch ${rng.int(1, 999)}.`,
        priceCents: rng.int(1, 2000) * 50 - 1,
        stock: rng.next() < 0.1 ? 0 : rng.int(1, 1000),
        createdAt,
        updatedAt: createdAt,
      };
      productIds.push(product.id);
      productPrices.push(product.priceCents);
      productTimes.push(created);
      yield product;
    }
    nextTable = "orders";
  }

  function* drawOrders(): Generator<SeedOrder> {
    mustBe("orders");
    nextTable = "none";
    const fixtureOrderTime = iso(fixtureTime + HOUR);
    const orderedProduct = fixtureProducts.ordered;
    let drawn = 0;
    for (const o of Object.values(fixtureOrders)) {
      drawn++;
      yield {
        id: o.id,
        userId: fixtureUsers.buyer.id,
        productId: orderedProduct.id,
        quantity: o.quantity,
        unitPriceCents: orderedProduct.priceCents,
        totalCents: orderedProduct.priceCents * o.quantity,
        status: o.status,
        createdAt: fixtureOrderTime,
        updatedAt: fixtureOrderTime,
      };
    }
    for (let i = drawn; i < counts.orders; i++) {
      const u = rng.int(fixtureUserCount, userIds.length - 1);
      const p = rng.int(fixtureProductCount, productIds.length - 1);
      const unitPriceCents = productPrices[p] as number;
      const quantity = rng.int(1, 5);
      const status = rng.pick(ORDER_STATUSES);
      const placed = hourAfter(Math.max(userTimes[u] as number, productTimes[p] as number), 30 * 24);
      const updated = status === "pending" ? placed : hourAfter(placed, 7 * 24);
      yield {
        id: rng.uuid(),
        userId: userIds[u] as string,
        productId: productIds[p] as string,
        quantity,
        unitPriceCents,
        totalCents: unitPriceCents * quantity,
        status,
        createdAt: iso(placed),
        updatedAt: iso(updated),
      };
    }
  }

  return { counts, users: drawUsers, products: drawProducts, orders: drawOrders };
}

/** A random order's status, drawn with these weights. */
const ORDER_STATUSES = [
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

/** Generates the whole data set in memory; pure and deterministic for a given scale. */
export async function generateSeed(scale = 1): Promise<SeedData> {
  const draw = await seedGenerator(scale);
  const users = [...draw.users()];
  const products = [...draw.products()];
  const orders = [...draw.orders()];
  return { users, products, orders };
}

/** Rows written to COPY between two progress reports (and between two waits for the socket to drain). */
const COPY_BATCH = 10_000;

/** One table's column: its name, its PostgreSQL type, and the value of a row for it. */
type Column<T> = [name: string, type: string, value: (row: T) => unknown];

/** COPY's binary format: its signature, then 32-bit flags and header-extension length, both 0. */
const COPY_HEADER = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
/** The binary format's end: a tuple of -1 fields. */
const COPY_TRAILER = Buffer.from([0xff, 0xff]);
/** PostgreSQL's epoch, from which its binary timestamps count microseconds. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);

/** Each hex digit's value, by character code (the UUIDs' text → their 16 bytes). */
const HEX_VALUES = new Uint8Array(128);
for (let i = 0; i < 16; i++) {
  HEX_VALUES[HEX_DIGITS[i] as number] = i;
  HEX_VALUES["0123456789ABCDEF".charCodeAt(i)] = i;
}

/**
 * Rows in COPY's binary format, grown as needed: a value is sent as PostgreSQL stores it (16 bytes for a UUID, a
 * count of microseconds for a timestamp), so the server parses no text. Loading a million orders took PostgreSQL
 * 1.9 s this way against 5.4 s from text, on the same rows.
 */
class BinaryRows {
  private bytes = Buffer.allocUnsafe(1 << 20);
  private at = 0;
  /** Each timestamp's microseconds since PG_EPOCH_MS: the seed's few thousand instants, each parsed once. */
  private readonly micros = new Map<string, number>();

  /** Room for `n` more bytes. */
  private room(n: number) {
    if (this.at + n <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + n));
    this.bytes.copy(bigger, 0, 0, this.at);
    this.bytes = bigger;
  }
  /** What was written since the last take(), handed over (the stream keeps it; the next rows get a new buffer). */
  take(): Buffer {
    const written = this.bytes.subarray(0, this.at);
    this.bytes = Buffer.allocUnsafe(this.bytes.length);
    this.at = 0;
    return written;
  }
  fieldCount(n: number) {
    this.room(2);
    this.at = this.bytes.writeInt16BE(n, this.at);
  }
  null() {
    this.room(4);
    this.at = this.bytes.writeInt32BE(-1, this.at);
  }
  int4(value: number) {
    this.room(8);
    this.at = this.bytes.writeInt32BE(4, this.at);
    this.at = this.bytes.writeInt32BE(value, this.at);
  }
  /** A safe integer as a signed 64-bit one: high and low 32 bits (two's complement, as floor division gives). */
  int8(value: number) {
    if (!Number.isSafeInteger(value)) throw new Error(`seed COPY: ${value} is not an integer`);
    this.room(12);
    this.at = this.bytes.writeInt32BE(8, this.at);
    this.at = this.bytes.writeInt32BE(Math.floor(value / 2 ** 32), this.at);
    this.at = this.bytes.writeUInt32BE(value >>> 0, this.at);
  }
  /** Text (varchar, and enums, whose binary form is their label): its UTF-8 bytes after their count. */
  text(value: string) {
    this.room(4 + value.length * 3);
    const length = this.bytes.write(value, this.at + 4, "utf8");
    this.bytes.writeInt32BE(length, this.at);
    this.at += 4 + length;
  }
  uuid(value: string) {
    if (value.length !== 36) throw new Error(`seed COPY: "${value}" is not a UUID`);
    this.room(20);
    this.at = this.bytes.writeInt32BE(16, this.at);
    for (let i = 0; i < 36; i += 2) {
      if (i === 8 || i === 13 || i === 18 || i === 23) i++; // the dashes
      this.bytes[this.at++] =
        ((HEX_VALUES[value.charCodeAt(i)] as number) << 4) | (HEX_VALUES[value.charCodeAt(i + 1)] as number);
    }
  }
  timestamptz(value: string) {
    let micros = this.micros.get(value);
    if (micros === undefined) {
      const ms = Date.parse(value);
      if (Number.isNaN(ms)) throw new Error(`seed COPY: "${value}" is not a timestamp`);
      micros = (ms - PG_EPOCH_MS) * 1000;
      this.micros.set(value, micros);
    }
    this.int8(micros);
  }
}

/** Writes a value of a column of type `type` (a Column's, as seedSql casts to it) into `rows`. */
function encoder(type: string): (rows: BinaryRows, value: unknown) => void {
  const nullable =
    (write: (rows: BinaryRows, value: never) => void) =>
    (rows: BinaryRows, value: unknown): void => {
      if (value === null || value === undefined) rows.null();
      else write(rows, value as never);
    };
  switch (type) {
    case "uuid":
      return nullable((rows, value: string) => rows.uuid(value));
    case "int":
      return nullable((rows, value: number) => rows.int4(value));
    case "bigint":
      return nullable((rows, value: number) => rows.int8(value));
    case "timestamptz":
      return nullable((rows, value: string) => rows.timestamptz(value));
    case "varchar":
    case "user_role":
    case "order_status":
      return nullable((rows, value: string) => rows.text(String(value)));
    default:
      throw new Error(`seed COPY: no binary encoding for a column of type ${type}`);
  }
}

/**
 * Writes `rows` into `table` with `COPY … FROM STDIN` (PostgreSQL's bulk load: one statement, no per-row round trip
 * or parse) in its binary format, COPY_BATCH rows at a time, reporting each batch to `progress`. `rows` may be
 * drawn lazily: the next batch is drawn and encoded while PostgreSQL stores the last one.
 */
async function copyRows<T>(
  client: pg.ClientBase,
  table: SeedPhase,
  rows: Iterable<T>,
  total: number,
  columns: Column<T>[],
  progress?: SeedProgress,
) {
  const names = columns.map(([name]) => name).join(", ");
  const fields = columns.map(([, type, value]) => ({ value, write: encoder(type) }));
  const copy = client.query(copyFrom(`COPY ${table} (${names}) FROM STDIN (FORMAT binary, FREEZE)`));
  async function* batches() {
    yield COPY_HEADER;
    const out = new BinaryRows();
    let done = 0;
    for (const row of rows) {
      out.fieldCount(fields.length);
      for (const { value, write } of fields) write(out, value(row));
      if (++done % COPY_BATCH === 0) {
        yield out.take();
        if (done < total) progress?.({ phase: table, done, total });
      }
    }
    yield out.take();
    yield COPY_TRAILER;
  }
  await pipeline(Readable.from(batches()), copy);
  progress?.({ phase: table, done: total, total });
}

/** The tables the seed writes, in the order it writes them (a row's references first). */
const SEEDED_TABLES = ["users", "products", "orders"];

/**
 * Drops every index of the seeded tables (their primary keys' included) and every foreign key on or to them, and
 * returns the statements that recreate them, in an order that works (primary keys before the keys that reference
 * them). A bulk load then builds each index once, from sorted rows, and checks each key in one join, instead of row
 * by row: at a million orders, a primary key on a random UUID kept up row by row alone took longer than the load.
 * Inside the seed's transaction, so a failed seed leaves them all as they were.
 */
async function dropForBulkLoad(client: pg.ClientBase) {
  const { rows } = await client.query<{
    kind: "index" | "foreign key";
    name: string;
    drop: string;
    create: string;
    drop_order: number;
    create_order: number;
  }>(
    `WITH seeded AS (SELECT unnest($1::regclass[]) AS rel),
     found AS (
       -- The foreign keys on or to a seeded table: dropped first, added last.
       SELECT 1 AS drop_order, 3 AS create_order, 'foreign key' AS kind, c.conname AS name,
              format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname) AS drop,
              format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname,
                     pg_get_constraintdef(c.oid)) AS "create"
         FROM pg_constraint c
        WHERE c.contype = 'f' AND (c.conrelid IN (SELECT rel FROM seeded) OR c.confrelid IN (SELECT rel FROM seeded))
       UNION ALL
       -- The indexes behind a primary key, unique or exclusion constraint: dropped and added as that constraint.
       SELECT 2, 1, 'index', c.conname,
              format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname),
              format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid))
         FROM pg_constraint c
        WHERE c.contype IN ('p', 'u', 'x') AND c.conrelid IN (SELECT rel FROM seeded)
       UNION ALL
       -- Every other index.
       SELECT 3, 2, 'index', i.indexrelid::regclass::text,
              format('DROP INDEX %s', i.indexrelid::regclass), pg_get_indexdef(i.indexrelid)
         FROM pg_index i
        WHERE i.indrelid IN (SELECT rel FROM seeded)
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))
     )
     SELECT kind, drop, "create", drop_order, create_order, name FROM found`,
    [SEEDED_TABLES],
  );
  const ordered = (key: "drop_order" | "create_order") =>
    rows.toSorted((a, b) => a[key] - b[key] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { drop } of ordered("drop_order")) await client.query(drop);
  const creates = ordered("create_order");
  return {
    indexes: creates.filter((r) => r.kind === "index").map((r) => r.create),
    foreignKeys: creates.filter((r) => r.kind === "foreign key").map((r) => r.create),
  };
}

/**
 * Puts each seeded table's rows in the order a live service would have written them, oldest first (`CLUSTER` on a
 * (created_at, id) index made for it and dropped after): the PRNG draws their times in no order, and a list read
 * newest first would otherwise fetch a row from a different page for every row it returns. At a million orders a
 * cursor walk's pages then outgrew the 128 MB of shared buffers, and PostgreSQL read them back from the OS for every
 * page (issue #35). The rows were written by COPY … FREEZE, and CLUSTER keeps them frozen; run before the indexes are
 * rebuilt, it rewrites one index per table.
 */
async function putInCreationOrder(client: pg.ClientBase, progress?: SeedProgress) {
  const total = SEEDED_TABLES.length;
  progress?.({ phase: "cluster", done: 0, total });
  for (const [i, table] of SEEDED_TABLES.entries()) {
    for (const statement of creationOrder(table)) await client.query(statement);
    progress?.({ phase: "cluster", done: i + 1, total });
  }
}

/** The statements that rewrite `table` oldest first (then by id), leaving no index behind. */
const creationOrder = (table: string) => [
  `CREATE INDEX seed_creation_order ON ${table} (created_at, id)`,
  `CLUSTER ${table} USING seed_creation_order`,
  "DROP INDEX seed_creation_order",
];

/** Runs `statements` one after another, reporting each to `progress` as `phase`. */
async function rebuild(client: pg.ClientBase, phase: SeedPhase, statements: string[], progress?: SeedProgress) {
  progress?.({ phase, done: 0, total: statements.length });
  for (const [i, statement] of statements.entries()) {
    await client.query(statement);
    progress?.({ phase, done: i + 1, total: statements.length });
  }
}

/** The columns of each seeded table, written once for both ways of loading the seed (copyRows and seedSql). */
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
  // In creation order on disk, as seedDatabase leaves the tables.
  for (const table of SEEDED_TABLES) yield `${creationOrder(table).join(";\n")};\n`;
  yield "COMMIT;\nANALYZE users, products, orders;\n";
}

export interface SeedOptions {
  scale?: number;
  /** Called as rows are written (the command line prints it as a progress line). */
  progress?: SeedProgress;
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
  const { progress } = options;
  const draw = await seedGenerator(options.scale ?? 1);
  const { counts } = draw;
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("BEGIN");
    // Nothing else writes these tables until the seed commits: a row inserted after the check below would
    // otherwise be emptied by the TRUNCATE.
    await client.query("LOCK TABLE orders, products, users, idempotency_keys IN ACCESS EXCLUSIVE MODE");
    if (!options.reset) {
      const { rows } = await client.query<{ n: number }>(
        "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM products) + (SELECT count(*) FROM orders) AS n",
      );
      if (Number(rows[0]?.n) > 0) {
        throw new DatabaseNotEmptyError(Number(rows[0]?.n));
      }
    }
    // Also when the tables are empty: COPY's FREEZE needs a table truncated in the same transaction.
    await client.query("TRUNCATE orders, products, users, idempotency_keys");
    // Room to sort a million rows' keys in memory for each index; and no wait at COMMIT for the WAL to reach the
    // disk (a crash in the next moment could lose the seed, never corrupt it: seed data is re-made in seconds).
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    await client.query("SET LOCAL synchronous_commit = off");
    const recreate = await dropForBulkLoad(client);
    await copyRows(client, "users", draw.users(), counts.users, USER_COLUMNS, progress);
    await copyRows(client, "products", draw.products(), counts.products, PRODUCT_COLUMNS, progress);
    await copyRows(client, "orders", draw.orders(), counts.orders, ORDER_COLUMNS, progress);
    await putInCreationOrder(client, progress);
    await rebuild(client, "indexes", recreate.indexes, progress);
    await rebuild(client, "foreign keys", recreate.foreignKeys, progress);
    await client.query("COMMIT");
    // CLUSTER leaves the visibility map empty: VACUUM marks every page all-visible and all-frozen again (as COPY …
    // FREEZE had), which index-only scans need, without freezing anything, then ANALYZE reads the new order.
    progress?.({ phase: "vacuum", done: 0, total: 1 });
    await client.query("VACUUM (ANALYZE) users, products, orders");
    progress?.({ phase: "vacuum", done: 1, total: 1 });
    return counts;
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
