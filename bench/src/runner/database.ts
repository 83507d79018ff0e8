// The seeded database as the bench uses it: ids drawn for the scenarios, stock reset before writes, and what
// the report says about PostgreSQL (version, settings, its local postmaster).
import { readFileSync } from "node:fs";
import { SEED_PASSWORD } from "@api-ref/db/fixtures";
import pg from "pg";
import type { Results } from "../results/schema.ts";
import type { OrderPages, Pools, Rng } from "../scenarios/catalog.ts";
import { orderPagesFrom, positionsNeeded } from "../scenarios/order-pages.ts";

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function sample<T>(items: readonly T[], n: number, rng: Rng): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}

const NOT_FIXTURE = "id::text NOT LIKE '00000000-0000-4000-8000-%'";

/**
 * Random rows of the seeded template (fixture rows left alone: every user drawn is a customer), drawn with the run's
 * seed; `jwtSecret` is the servers' own, which the scenarios sign their callers' tokens with.
 */
export async function samplePools(url: string, rng: Rng, jwtSecret: string): Promise<Pools> {
  return withClient(url, async (c) => {
    const ids = async (sql: string) => (await c.query<{ id: string }>(sql)).rows.map((r) => r.id);
    const users = await ids(`SELECT id FROM users WHERE ${NOT_FIXTURE} AND role = 'customer' ORDER BY id LIMIT 50000`);
    const products = await ids(`SELECT id FROM products WHERE ${NOT_FIXTURE} ORDER BY id LIMIT 50000`);
    const orders = await ids(`SELECT id FROM orders WHERE ${NOT_FIXTURE} ORDER BY id LIMIT 50000`);
    const logins = (
      await c.query<{ id: string; email: string }>(
        `SELECT id, email FROM users WHERE ${NOT_FIXTURE} AND password_hash IS NOT NULL ORDER BY id LIMIT 50000`,
      )
    ).rows;
    return {
      userIds: sample(users, 512, rng),
      productIds: sample(products, 512, rng),
      orderIds: sample(orders, 512, rng),
      logins: sample(logins, 256, rng),
      password: SEED_PASSWORD,
      orderProductIds: sample(products, 256, rng),
      jwtSecret,
      orderPages: await readOrderPages(c),
    };
  });
}

/**
 * GET /orders's pages as the seeded copy holds them (scenarios/order-pages.ts says which rows): each row's position
 * in the list's order numbered in one pass, and only the rows wanted sent back (at a million orders, a second).
 */
async function readOrderPages(c: pg.Client): Promise<OrderPages> {
  const total = Number((await c.query<{ n: string }>("SELECT count(*) AS n FROM orders")).rows[0]?.n ?? 0);
  const { rows } = await c.query<{ pos: string; id: string; created_at: Date }>(
    `SELECT o.pos, o.id, o.created_at FROM (
       SELECT id, created_at, row_number() OVER (ORDER BY created_at DESC, id ASC) - 1 AS pos FROM orders
     ) o JOIN unnest($1::bigint[]) AS wanted(pos) ON wanted.pos = o.pos`,
    [positionsNeeded(total)],
  );
  const keys = new Map(rows.map((r) => [Number(r.pos), { id: r.id, createdAt: r.created_at.toISOString() }]));
  return orderPagesFrom(total, keys);
}

/** Gives the products write scenarios order from plenty of stock, so that no run ends in 409s. */
export async function restock(url: string, productIds: string[]) {
  await withClient(url, (c) => c.query("UPDATE products SET stock = 1000000 WHERE id = ANY($1::uuid[])", [productIds]));
}

export async function postgresInfo(url: string) {
  return withClient(url, async (c) => {
    const version = (await c.query<{ v: string }>("SELECT version() AS v")).rows[0]?.v ?? "unknown";
    const settings: Record<string, string> = {};
    for (const name of ["max_connections", "shared_buffers", "fsync", "synchronous_commit", "full_page_writes"]) {
      settings[name] = (await c.query<Record<string, string>>(`SHOW ${name}`)).rows[0]?.[name] ?? "";
    }
    return { version, settings };
  });
}

/**
 * The postmaster's pid when PostgreSQL runs on this machine (embedded, or a local server): its process tree is
 * where the database's CPU goes. Undefined for a container or a remote server (its pids are not ours).
 */
export async function findLocalPostmaster(adminUrl: string): Promise<number | undefined> {
  // Read /proc while the connection is open: its backend process ends with it.
  return withClient(adminUrl, async (c) => {
    const backend = (await c.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
    if (!backend) return undefined;
    try {
      const comm = (pid: number) => readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      if (!comm(backend).startsWith("postgres")) return undefined;
      const ppid = Number(readFileSync(`/proc/${backend}/stat`, "utf8").split(") ")[1]?.split(" ")[1]);
      return comm(ppid).startsWith("postgres") ? ppid : undefined;
    } catch {
      return undefined;
    }
  });
}

export async function countRows(url: string): Promise<Results["rows"]> {
  return withClient(url, async (c) => {
    const count = async (table: string) =>
      Number((await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n ?? 0);
    return { users: await count("users"), products: await count("products"), orders: await count("orders") };
  });
}

/**
 * The PostgreSQL backends serving the database at this URL (its client connections, not this query's own):
 * duet moves them into the control group of the server they serve.
 */
export async function backendPids(url: string): Promise<number[]> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
    );
    return rows.map((r) => r.pid);
  });
}
