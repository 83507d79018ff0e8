import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { provisionPostgres } from "../src/provision.ts";

/** A handle on the run's server (from global-setup); databases it creates are dropped by stop(). */
export function testServer() {
  return provisionPostgres({ env: { PG_PROVIDER: "env", DATABASE_URL: inject("pgAdminUrl") }, log: () => {} });
}

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(5).toString("hex")}`;

/**
 * For each seeded table, how many rows are stored right after a newer one (by created_at then id, in the order of
 * their places on disk): 0 when the table is in the order a live service would have written it.
 */
export async function rowsOutOfCreationOrder(connectionString: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const count = async (table: string) => {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (
           SELECT (created_at, id) < lag((created_at, id)) OVER (ORDER BY ctid) AS behind FROM ${table}) t
         WHERE behind`,
      );
      return rows[0]?.n;
    };
    return { users: await count("users"), products: await count("products"), orders: await count("orders") };
  } finally {
    await client.end();
  }
}
