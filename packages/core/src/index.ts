import { createPrismaClient, type PrismaClient } from "@api-ref/db";
import { authRepository } from "./auth.ts";
import { translate } from "./errors.ts";
import { ordersRepository } from "./orders.ts";
import { productsRepository } from "./products.ts";
import { usersRepository } from "./users.ts";

export * from "./auth.ts";
export * from "./config.ts";
export * from "./dto.ts";
export * from "./errors.ts";
export * from "./http.ts";
export * from "./limits.ts";
export * from "./metrics.ts";
export * from "./orders.ts";
export * from "./products.ts";
export * from "./serve.ts";
export * from "./users.ts";

export interface DataAccessOptions {
  databaseUrl: string;
  jwtSecret: string;
  poolSize?: number;
}

/** The data access every Node app wires in its own way (middleware state, decorator, provider). */
export function createDataAccess({ databaseUrl, jwtSecret, poolSize }: DataAccessOptions) {
  const prisma: PrismaClient = createPrismaClient({ connectionString: databaseUrl, poolSize });
  return {
    users: usersRepository(prisma),
    products: productsRepository(prisma),
    orders: ordersRepository(prisma),
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
