import { createPrismaClient, type PrismaClient } from "@api-ref/db";
import { authRepository } from "./auth.ts";
import { translate } from "./errors.ts";
import { ordersSqlQueries, takeStockInOneStatement } from "./orders.sql.ts";
import { ordersRepository } from "./orders.ts";
import { productsSqlQueries } from "./products.sql.ts";
import { productsRepository } from "./products.ts";
import { usersSqlQueries } from "./users.sql.ts";
import { usersRepository } from "./users.ts";

export * from "./auth.ts";
export * from "./dto.ts";
export * from "./errors.ts";
export { ordersSqlQueries, takeStockInOneStatement } from "./orders.sql.ts";
export * from "./orders.ts";
export * from "./principal.ts";
export { productsSqlQueries } from "./products.sql.ts";
export * from "./products.ts";
export { usersSqlQueries } from "./users.sql.ts";
export * from "./users.ts";

/** `client`: Prisma's query API (the default); `sql`: the hot routes through Prisma's raw-SQL path ($queryRaw). */
export const DATA_ACCESS_MODES = ["client", "sql"] as const;
export type DataAccessMode = (typeof DATA_ACCESS_MODES)[number];

export interface DataAccessOptions {
  databaseUrl: string;
  jwtSecret: string;
  poolSize?: number;
  /** PostgreSQL's statement_timeout on every pooled connection, in ms (default: packages/db's). */
  statementTimeoutMs?: number;
  /**
   * `client` (default): every query through Prisma's client API. `sql`: the hot routes (get by id, the lists,
   * order creation) through Prisma's raw-SQL path (`$queryRaw`), everything else as in `client`.
   */
  dataAccessMode?: DataAccessMode;
}

/** The data access every Node app wires in its own way (middleware state, decorator, provider). */
export function createDataAccess(options: DataAccessOptions) {
  const { databaseUrl, jwtSecret, poolSize, statementTimeoutMs, dataAccessMode = "client" } = options;
  const prisma: PrismaClient = createPrismaClient({ connectionString: databaseUrl, poolSize, statementTimeoutMs });
  const sql = dataAccessMode === "sql";
  return {
    users: sql ? { ...usersRepository(prisma), ...usersSqlQueries(prisma) } : usersRepository(prisma),
    products: sql ? { ...productsRepository(prisma), ...productsSqlQueries(prisma) } : productsRepository(prisma),
    orders: sql
      ? { ...ordersRepository(prisma, takeStockInOneStatement), ...ordersSqlQueries(prisma) }
      : ordersRepository(prisma),
    auth: authRepository(prisma, jwtSecret),
    /** Readiness: one round trip to the database; a 503 problem when it cannot be reached. */
    async ping() {
      await prisma.$queryRaw`SELECT 1`.catch(translate);
    },
    /** Closes the pool; call once the server has stopped taking requests. */
    close: () => prisma.$disconnect(),
  };
}
export type DataAccess = ReturnType<typeof createDataAccess>;
