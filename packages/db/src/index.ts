export {
  createPrismaClient,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  type PrismaClientOptions,
  poolSizeFromEnv,
  statementTimeoutFromEnv,
} from "./client.ts";
export * from "./fixtures.ts";
export type { Order, OrderStatus, Product, User } from "./generated/prisma/client.ts";
export { Prisma, PrismaClient } from "./generated/prisma/client.ts";
export { applyMigrations, readMigrations } from "./migrate.ts";
export { hashPassword, needsRehash, SCRYPT_PARAMS, verifyPassword } from "./password.ts";
export {
  type PostgresProvider,
  type PostgresServer,
  ProvisionError,
  prepareTemplate,
  provisionPostgres,
} from "./provision.ts";
export {
  checksumDatabase,
  countsFor,
  generateSeed,
  MAX_SCALE,
  SEED_PHASES,
  type SeedPhase,
  type SeedProgress,
  type SeedStep,
  seedDatabase,
  seedProgressPrinter,
} from "./seed.ts";
