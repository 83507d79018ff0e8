// How the raw PostgreSQL baselines reach the database, one interface over two drivers: pg (node-postgres) with
// every statement a named prepared statement (parsed and planned once per connection), and Bun's built-in SQL
// client (`Bun.SQL`), which prepares and caches every parameterised statement per connection by itself. Both
// answer rows as the routes read them (timestamps as Date, int as number, bigint as a string or a number).
import { createHash } from "node:crypto";
import pg from "pg";

type Row = Record<string, unknown>;

/** One statement with `$1…` parameters: its rows, and how many rows it changed. */
export type Query = <R extends Row = Row>(text: string, values?: unknown[]) => Promise<{ rows: R[]; rowCount: number }>;

export interface Db {
  query: Query;
  /** Runs `work` in one transaction on one connection (COMMIT, or ROLLBACK when it throws). */
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /** A PostgreSQL error's SQLSTATE (`23505`…), or a connection error's code; undefined for other errors. */
  codeOf(error: unknown): string | undefined;
  end(): Promise<void>;
}

const url = () => process.env.DATABASE_URL;
const poolSize = () => Number(process.env.DB_POOL_SIZE || 10);

/** pg's pool, every statement a named prepared statement: one name per distinct SQL text. */
export function pgDb(): Db {
  const pool = new pg.Pool({ connectionString: url(), max: poolSize() });
  const names = new Map<string, string>();
  const on =
    (client: pg.Pool | pg.PoolClient): Query =>
    async <R extends Row>(text: string, values: unknown[] = []) => {
      let name = names.get(text);
      if (name === undefined) {
        name = `b_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
        names.set(text, name);
      }
      const result = await client.query<R>({ name, text, values });
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    };
  return {
    query: on(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(on(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    codeOf: (error) => (error as { code?: string }).code,
    end: () => pool.end(),
  };
}

// The few members of Bun's SQL client used here (its full typings are Bun's, not installed here).
interface BunSqlResult extends Array<Row> {
  count: number;
}
interface BunSql {
  unsafe(text: string, values?: unknown[]): Promise<BunSqlResult>;
  begin<T>(work: (tx: BunSql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
declare const Bun: { SQL: new (options: { url: string | undefined; max: number }) => BunSql } | undefined;

/** Bun's built-in PostgreSQL client (`new Bun.SQL`): its pool, its own statement cache. Bun only. */
export function bunSqlDb(): Db {
  if (typeof Bun === "undefined") throw new Error("bunSqlDb needs Bun's built-in SQL client: run it with bun");
  const sql = new Bun.SQL({ url: url(), max: poolSize() });
  const on =
    (client: BunSql): Query =>
    async <R extends Row>(text: string, values: unknown[] = []) => {
      const rows = await client.unsafe(text, values);
      return { rows: rows as unknown as R[], rowCount: rows.count };
    };
  return {
    query: on(sql),
    transaction: (work) => sql.begin((tx) => work(on(tx))),
    // Bun's PostgresError carries the SQLSTATE as `errno` and its own kind as `code` (ERR_POSTGRES_…).
    codeOf(error) {
      const { errno, code } = error as { errno?: unknown; code?: unknown };
      if (typeof errno === "string" && /^[0-9A-Z]{5}$/.test(errno)) return errno;
      if (typeof code === "string" && /CONNECTION|ECONNREFUSED/.test(code)) return "ECONNREFUSED";
      return typeof code === "string" ? code : undefined;
    },
    end: () => sql.close(),
  };
}
