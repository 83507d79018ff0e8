import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export interface PrismaClientOptions {
  /** PostgreSQL connection string. */
  connectionString: string;
  /** Maximum connections in the pg pool (default 10, or DB_POOL_SIZE). Every implementation uses the same. */
  poolSize?: number;
  /**
   * Name each distinct SQL text so node-postgres prepares it once per connection and reuses the plan
   * (default true). Prisma's pg adapter sends unnamed statements otherwise: parse + plan on every query.
   */
  preparedStatements?: boolean;
}

export function poolSizeFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DB_POOL_SIZE;
  if (raw === undefined || raw === "") return 10;
  const size = Number(raw);
  if (!Number.isInteger(size) || size < 1 || size > 1000) {
    throw new Error(`DB_POOL_SIZE must be an integer from 1 to 1000, got "${raw}"`);
  }
  return size;
}

const CONNECT_TIMEOUT_MS = 2_000;

const statementNames = new Map<string, string>();

/** A stable, collision-resistant prepared-statement name per SQL text (same text → same name). */
function statementName(query: { sql: string }): string {
  let name = statementNames.get(query.sql);
  if (name === undefined) {
    name = `prisma_${createHash("sha1").update(query.sql).digest("hex").slice(0, 24)}`;
    statementNames.set(query.sql, name);
  }
  return name;
}

/** The Prisma client every Node implementation uses: Prisma 7 on the pg driver adapter, no engine binary. */
export function createPrismaClient(options: PrismaClientOptions): PrismaClient {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? poolSizeFromEnv(),
    // Without a bound, a request waits forever for a connection while PostgreSQL is unreachable; with it,
    // the request fails fast and the app answers 503 (and recovers by itself once the database is back).
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // node-postgres emits 'error' on a client whose connection fails. The pool listens while a client is idle, a
  // query or Prisma's transaction while it runs, but nobody in between: a client the pool is ending after a
  // failed query has no listener, and PostgreSQL's shutdown message arriving then (57P01) was an unhandled
  // 'error' event that ended the process (the fault suite's database outage found it). Every client gets a
  // listener for its whole life; the failure itself still reaches the query that was running, as a 503.
  pool.on("connect", (client) => client.on("error", ignoreClientError));
  const adapter = new PrismaPg(pool, {
    disposeExternalPool: true,
    ...(options.preparedStatements === false ? {} : { statementNameGenerator: statementName }),
  });
  return new PrismaClient({ adapter });
}

function ignoreClientError() {}

export type { PrismaClient };
