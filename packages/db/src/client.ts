import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
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
  const adapter = new PrismaPg(
    {
      connectionString: options.connectionString,
      max: options.poolSize ?? poolSizeFromEnv(),
      // Without a bound, a request waits forever for a connection while PostgreSQL is unreachable; with it,
      // the request fails fast and the app answers 503 (and recovers by itself once the database is back).
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    },
    options.preparedStatements === false ? {} : { statementNameGenerator: statementName },
  );
  return new PrismaClient({ adapter });
}

export type { PrismaClient };
