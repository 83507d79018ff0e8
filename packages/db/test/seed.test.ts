import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixtureOrders, fixtureProducts, fixtureUsers, SEED_PASSWORD } from "../src/fixtures.ts";
import { applyMigrations } from "../src/migrate.ts";
import { needsRehash, verifyPassword } from "../src/password.ts";
import type { PostgresServer } from "../src/provision.ts";
import { checksumDatabase, DatabaseNotEmptyError, generateSeed, MAX_SCALE, seedDatabase } from "../src/seed.ts";
import { sql } from "../src/sql.ts";
import { rowsOutOfCreationOrder, testServer, uniqueName } from "./helpers.ts";

const SEED_CLI = fileURLToPath(new URL("../src/cli/seed.ts", import.meta.url));
const SETUP_CLI = fileURLToPath(new URL("../src/cli/setup.ts", import.meta.url));
const CREATE_ADMIN_CLI = fileURLToPath(new URL("../src/cli/create-admin.ts", import.meta.url));
const query = <T extends pg.QueryResultRow>(url: string, text: string) => sql<T>(url, text);
let server: PostgresServer;

/** What pnpm db:seed prints on stderr when it is not a terminal: one finished line per phase, nothing else. */
const PROGRESS_LINES = (users: number, products: number, orders: number) => {
  const n = (count: number) => count.toLocaleString("en-US");
  const line = (phase: string, count: string) => `seed: ${phase} ${count}/${count} \\(100%\\) \\d+\\.\\d s\\n`;
  return new RegExp(
    `^${line("users", n(users))}${line("products", n(products))}${line("orders", n(orders))}` +
      `${line("cluster", "3")}${line("indexes", "\\d+")}${line("foreign keys", "\\d+")}${line("vacuum", "1")}$`,
  );
};

async function migratedDatabase(prefix: string) {
  const url = await server.createDatabase(uniqueName(prefix));
  await applyMigrations(url);
  return url;
}

/** Each seeded table's row count and the MD5 of its rows in id order (timestamps rendered in UTC). */
async function tableChecksums(connectionString: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SET TIME ZONE 'UTC'");
    const sums: Record<string, { rows: number; md5: string }> = {};
    for (const table of ["users", "products", "orders", "idempotency_keys"]) {
      const { rows } = await client.query<{ n: string; md5: string | null }>(
        `SELECT count(*) AS n, md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS md5 FROM ${table} t`,
      );
      sums[table] = { rows: Number(rows[0]?.n), md5: String(rows[0]?.md5) };
    }
    return sums;
  } finally {
    await client.end();
  }
}

function runSeedCli(args: string[], databaseUrl?: string, cli = SEED_CLI, extraEnv: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  for (const name of ["DATABASE_URL", "SEED_DEMO_DATA", "ADMIN_EMAIL", "ADMIN_PASSWORD", "ADMIN_NAME"]) {
    if (!(name in extraEnv)) delete env[name];
  }
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return spawnSync(process.execPath, [cli, ...args], {
    env,
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 2 ** 26,
  });
}

beforeAll(async () => {
  server = await testServer();
});
afterAll(() => server?.stop());

describe("seed", () => {
  it("yields identical data, ids included, when run twice on two empty databases", async () => {
    const [a, b] = await Promise.all([migratedDatabase("seed_a"), migratedDatabase("seed_b")]);
    await seedDatabase(a);
    await seedDatabase(b);
    const [sumA, sumB] = await Promise.all([checksumDatabase(a), checksumDatabase(b)]);
    expect(sumA).toMatchObject({ users: 1000, products: 5000, orders: 10000 });
    expect(sumA.checksum).toMatch(/^[0-9a-f]{32}$/);
    expect(sumB).toEqual(sumA);
  });

  it("gives the same checksum again after --reset, and differs once a row changes", async () => {
    const url = await migratedDatabase("seed_reset");
    await seedDatabase(url);
    const before = await checksumDatabase(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("UPDATE products SET stock = stock + 1 WHERE id = $1", [fixtureProducts.unordered.id]);
    await client.end();
    expect((await checksumDatabase(url)).checksum).not.toBe(before.checksum);
    await seedDatabase(url, { reset: true });
    expect(await checksumDatabase(url)).toEqual(before);
  });

  it("refuses to write over a database that holds data unless told to reset", async () => {
    const url = await migratedDatabase("seed_refuse");
    await seedDatabase(url);
    await expect(seedDatabase(url)).rejects.toBeInstanceOf(DatabaseNotEmptyError);
    const result = runSeedCli([], url);
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/already holds 16000 rows; pass --reset/);
  });

  it("with --if-empty seeds an empty database, then leaves the seeded one as it is and exits 0", async () => {
    const url = await migratedDatabase("seed_if_empty");
    const first = runSeedCli(["--if-empty"], url);
    expect(first.stderr).toMatch(PROGRESS_LINES(1000, 5000, 10000));
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^seeded 1000 users, 5000 products, 10000 orders in \d+ ms\n$/);
    const seeded = await checksumDatabase(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("UPDATE products SET stock = stock + 1 WHERE id = $1", [fixtureProducts.unordered.id]);
    await client.end();
    const changed = await checksumDatabase(url);
    expect(changed.checksum).not.toBe(seeded.checksum);
    const second = runSeedCli(["--if-empty"], url);
    expect(second.stderr).toBe("");
    expect(second.status).toBe(0);
    expect(second.stdout).toBe("not seeded: the database already holds 16000 rows (--if-empty)\n");
    expect(await checksumDatabase(url)).toEqual(changed); // not rewritten, not reset
  });

  it("pnpm db:setup with SEED_DEMO_DATA=true migrates and seeds an empty database, then leaves it as it is", async () => {
    const url = await server.createDatabase(uniqueName("seed_setup"));
    const demo = { SEED_DEMO_DATA: "true" };
    const first = runSeedCli([], url, SETUP_CLI, demo);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(
      /^applied \S+_init\napplied \S+_authorization\n2 applied, 0 already applied\nseeded 1000 users, 5000 products, 10000 orders in \d+ ms\n$/,
    );
    const seeded = await checksumDatabase(url);
    const second = runSeedCli([], url, SETUP_CLI, demo);
    expect(second.stderr).toBe("");
    expect(second.status).toBe(0);
    expect(second.stdout).toBe("0 applied, 2 already applied\nnot seeded: the database already holds 16000 rows\n");
    expect(await checksumDatabase(url)).toEqual(seeded);
  });

  it("pnpm db:setup loads no demo data unless asked, and makes the first admin from the environment", async () => {
    const url = await server.createDatabase(uniqueName("setup_admin"));
    const admin = { ADMIN_EMAIL: "Owner@Example.com", ADMIN_PASSWORD: "a long admin password" };
    const first = runSeedCli([], url, SETUP_CLI, admin);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(
      /no demo data \(SEED_DEMO_DATA=true loads it[^\n]*\nowner@example\.com: admin created\n$/,
    );
    const again = runSeedCli([], url, SETUP_CLI, { ...admin, ADMIN_PASSWORD: "another password here" });
    expect(again.stdout).toMatch(/owner@example\.com: already an admin\n$/);
    const users = await query<{ email: string; role: string; password_hash: string }>(
      url,
      "SELECT email, role::text, password_hash FROM users",
    );
    expect(users.map(({ email, role }) => ({ email, role }))).toEqual([{ email: "owner@example.com", role: "admin" }]);
    expect(await verifyPassword(admin.ADMIN_PASSWORD, users[0]?.password_hash)).toBe(true);
  });

  it.each([
    ["ADMIN_EMAIL without ADMIN_PASSWORD", { ADMIN_EMAIL: "a@example.com" }, /^error: ADMIN_PASSWORD must be 8–128/],
    ["SEED_DEMO_DATA=yes", { SEED_DEMO_DATA: "yes" }, /^error: SEED_DEMO_DATA must be true or false, got "yes"\n$/],
  ])("pnpm db:setup refuses %s with one line and exit 2, before touching the database", (_, env, message) => {
    const result = runSeedCli([], "postgres://nobody@127.0.0.1:1/none", SETUP_CLI, env);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("pnpm db:create-admin promotes an existing user and keeps their password; a new one takes ADMIN_PASSWORD", async () => {
    const url = await migratedDatabase("create_admin");
    await seedDatabase(url, { scale: 0.01 });
    const promoted = runSeedCli(["--email", fixtureUsers.buyer.email], url, CREATE_ADMIN_CLI, {
      ADMIN_PASSWORD: "unused password",
    });
    expect(promoted.stdout).toBe(`${fixtureUsers.buyer.email}: admin promoted\n`);
    const created = runSeedCli(["--email", "new@example.com", "--name", "New"], url, CREATE_ADMIN_CLI, {
      ADMIN_PASSWORD: "a long admin password",
    });
    expect(created.stdout).toBe("new@example.com: admin created\n");
    const rows = await query<{ email: string; role: string; password_hash: string }>(
      url,
      "SELECT email, role::text, password_hash FROM users WHERE role = 'admin' ORDER BY email",
    );
    expect(rows.map((r) => r.email)).toEqual([fixtureUsers.admin.email, fixtureUsers.buyer.email, "new@example.com"]);
    expect(await verifyPassword(SEED_PASSWORD, rows[1]?.password_hash)).toBe(true);
    expect(await verifyPassword("a long admin password", rows[2]?.password_hash)).toBe(true);
    const refused = runSeedCli(["--email", "x@example.com"], url, CREATE_ADMIN_CLI);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^error: ADMIN_PASSWORD must be/);
  });

  it("doubles every count with --scale 2 from the command line", async () => {
    const url = await migratedDatabase("seed_scale");
    const result = runSeedCli(["--scale", "2"], url);
    expect(result.stderr).toMatch(PROGRESS_LINES(2000, 10000, 20000));
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/seeded 2000 users, 10000 products, 20000 orders/);
    expect(await checksumDatabase(url)).toMatchObject({ users: 2000, products: 10000, orders: 20000 });
  });

  it("prints with --sql the same data as it inserts: loaded into a fresh migrated database, equal counts and checksum", async () => {
    const [seeded, loaded] = await Promise.all([migratedDatabase("seed_direct"), migratedDatabase("seed_sql")]);
    await seedDatabase(seeded);
    const result = runSeedCli(["--sql"]); // no DATABASE_URL: the SQL needs none
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).not.toMatch(/^\\/m); // no psql meta-command: any client that runs a script loads it
    expect(result.stdout).toMatch(/\nCOMMIT;\nANALYZE users, products, orders;\n$/); // all of it, to the last line
    const client = new pg.Client({ connectionString: loaded });
    await client.connect();
    try {
      await client.query(result.stdout); // the whole script, as psql -f sends it: statement after statement
    } finally {
      await client.end();
    }
    const expected = await tableChecksums(seeded);
    expect(expected).toMatchObject({ users: { rows: 1000 }, products: { rows: 5000 }, orders: { rows: 10000 } });
    expect(await tableChecksums(loaded)).toEqual(expected);
    expect(await rowsOutOfCreationOrder(loaded)).toEqual({ users: 0, products: 0, orders: 0 });
  });

  it("prints with --sql --reset a script that replaces rows already there, and without it one that refuses them", async () => {
    const url = await migratedDatabase("seed_sql_reset");
    await seedDatabase(url);
    const expected = await tableChecksums(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("UPDATE products SET stock = 0 WHERE id = $1", [fixtureProducts.lowStock.id]);
      await expect(client.query(runSeedCli(["--sql"]).stdout)).rejects.toThrow(/duplicate key/);
      await client.query("ROLLBACK");
      await client.query(runSeedCli(["--sql", "--reset"]).stdout);
    } finally {
      await client.end();
    }
    expect(await tableChecksums(url)).toEqual(expected);
  });

  it.each([
    [["--scale", "-1"], /--scale must be greater than 0, got -1/],
    [["--scale", "0"], /--scale must be greater than 0/],
    [["--scale", "abc"], /--scale must be a number, got "abc"/],
    [["--scale", "1e9"], new RegExp(`--scale must be at most ${MAX_SCALE}, got 1e9`)],
    [["--scale"], /--scale.*argument/],
    [["--sacle", "2"], /Unknown option '--sacle'/],
    [["--if-empty", "--reset"], /--if-empty and --reset contradict each other/],
    [["--if-empty", "--sql"], /--if-empty needs a database to look at/],
  ])("rejects bad input %j with a clear message and a non-zero exit, before touching a database", (args, message) => {
    const result = runSeedCli(args, "postgres://nobody@127.0.0.1:1/none");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/usage: pnpm db:seed/);
  });

  it("fails clearly without DATABASE_URL", () => {
    const result = runSeedCli([]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^error: DATABASE_URL is not set — .*\n$/);
  });

  it("writes the named fixture rows, with the properties tests rely on", async () => {
    const url = await server.createDatabase(uniqueName("seed_fixtures"), { template: inject("pgTemplate") });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const product = async (id: string) =>
        (
          await client.query(
            "SELECT stock, (SELECT count(*)::int FROM orders WHERE product_id = $1) AS orders FROM products WHERE id = $1",
            [id],
          )
        ).rows[0];
      expect(await product(fixtureProducts.lowStock.id)).toEqual({ stock: 10, orders: 0 });
      expect(await product(fixtureProducts.outOfStock.id)).toEqual({ stock: 0, orders: 0 });
      expect(await product(fixtureProducts.unordered.id)).toEqual({ stock: 1000, orders: 0 });
      expect((await product(fixtureProducts.ordered.id))?.orders).toBe(Object.keys(fixtureOrders).length);
      const statuses = await client.query("SELECT id, status, user_id FROM orders WHERE product_id = $1 ORDER BY id", [
        fixtureProducts.ordered.id,
      ]);
      expect(statuses.rows).toEqual(
        Object.values(fixtureOrders).map((o) => ({ id: o.id, status: o.status, user_id: fixtureUsers.buyer.id })),
      );
      const noOrders = await client.query("SELECT count(*)::int AS n FROM orders WHERE user_id = $1", [
        fixtureUsers.noOrders.id,
      ]);
      expect(noOrders.rows[0].n).toBe(0);
      const { rows } = await client.query("SELECT password_hash FROM users WHERE id = $1", [fixtureUsers.buyer.id]);
      // Seeded with today's parameters, so that no seeded user's first login rewrites their hash.
      expect(needsRehash(rows[0].password_hash)).toBe(false);
      expect(rows[0].password_hash).toMatch(/^scrypt\$16384\$8\$5\$/);
      expect(await verifyPassword(SEED_PASSWORD, rows[0].password_hash)).toBe(true);
      expect(await verifyPassword("wrong-password", rows[0].password_hash)).toBe(false);
      const sample = await client.query(
        "SELECT count(*)::int AS n FROM orders WHERE total_cents <> unit_price_cents * quantity",
      );
      expect(sample.rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });

  it("gives rows that share createdAt, so that list tie-breaks are exercised", async () => {
    const data = await generateSeed(1);
    const times = data.orders.map((o) => o.createdAt);
    expect(new Set(times).size).toBeLessThan(times.length);
    expect(new Set(data.users.map((u) => u.email)).size).toBe(data.users.length);
    expect(data.products.some((p) => p.stock === 0)).toBe(true);
  });
});
