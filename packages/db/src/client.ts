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
  /** PostgreSQL's statement_timeout on every connection, in ms (default 5,000, or DB_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs?: number;
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

/** The longest one statement may run, its wait for a lock included (DB_STATEMENT_TIMEOUT_MS overrides it). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;
const MAX_STATEMENT_TIMEOUT_MS = 600_000;

/**
 * DB_STATEMENT_TIMEOUT_MS: a bound on every statement, so that one expensive query cannot hold a pooled connection
 * as long as it likes; PostgreSQL cancels it (57014) and the request is a 503. Digits only, as FastAPI reads it.
 */
export function statementTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DB_STATEMENT_TIMEOUT_MS;
  if (raw === undefined || raw === "") return DEFAULT_STATEMENT_TIMEOUT_MS;
  const ms = Number(raw);
  if (!/^[0-9]+$/.test(raw) || ms < 1 || ms > MAX_STATEMENT_TIMEOUT_MS) {
    throw new Error(`DB_STATEMENT_TIMEOUT_MS must be an integer from 1 to ${MAX_STATEMENT_TIMEOUT_MS}, got "${raw}"`);
  }
  return ms;
}

/** A new connection that takes longer than this means PostgreSQL is unreachable: the request gets a 503. */
export const CONNECT_TIMEOUT_MS = 2_000;
/**
 * Waiting for a free pooled connection is normal under load and must not fail a request; this bound only keeps a
 * request from queueing forever behind connections stuck on a database that stopped answering (FastAPI's
 * asyncpg pool has the same two bounds).
 */
export const ACQUIRE_TIMEOUT_MS = 30_000;

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
    // pg-pool's connectionTimeoutMillis bounds the wait for a pooled connection, a free one or a new one alike:
    // at 2 s it turned a busy pool (100 connections on a pool of 10) into 503s while PostgreSQL was fine. The
    // pool waits up to ACQUIRE_TIMEOUT_MS; each new connection has CONNECT_TIMEOUT_MS to be established, so
    // an unreachable database still fails a request fast (a 503) and the app recovers by itself.
    connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS,
    // Sent with each connection's start-up message: no round trip per request.
    statement_timeout: options.statementTimeoutMs ?? statementTimeoutFromEnv(),
    Client: BoundedConnectClient,
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

/** node-postgres's client with its own connect timeout, shorter than the pool's wait. */
class BoundedConnectClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

export type { PrismaClient };
