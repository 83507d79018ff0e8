// The configuration every Node app reads from its environment, validated once at start-up.
import { poolSizeFromEnv } from "@api-ref/db";

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string;
  jwtSecret: string;
  logLevel: string;
  poolSize: number;
  /** How long a graceful shutdown may take before the process gives up on in-flight requests. */
  shutdownGraceMs: number;
  /** Which query path the data access takes (DATA_ACCESS): Prisma's client API, or its raw-SQL path. */
  dataAccessMode: DataAccessMode;
}

/** `client`: Prisma's query API (the default); `sql`: the hot routes through Prisma's raw-SQL path ($queryRaw). */
export const DATA_ACCESS_MODES = ["client", "sql"] as const;
export type DataAccessMode = (typeof DATA_ACCESS_MODES)[number];

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** A configuration the process cannot start with; its message lists every problem. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Reads PORT, HOST, DATABASE_URL, JWT_SECRET, LOG_LEVEL, DB_POOL_SIZE, DATA_ACCESS; throws one message listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be an integer 0–65535, got "${env.PORT}"`);
  if (!env.DATABASE_URL) problems.push("DATABASE_URL is required");
  else if (!/^postgres(ql)?:\/\/[^\s]+$/.test(env.DATABASE_URL) || !URL.canParse(env.DATABASE_URL))
    problems.push("DATABASE_URL must be a postgres:// or postgresql:// URL");
  if (!env.JWT_SECRET || env.JWT_SECRET.length < 16) problems.push("JWT_SECRET is required (at least 16 characters)");
  const logLevel = env.LOG_LEVEL || "info";
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  let poolSize = 10;
  try {
    poolSize = poolSizeFromEnv(env);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const dataAccessMode = (env.DATA_ACCESS || "client") as DataAccessMode;
  if (!DATA_ACCESS_MODES.includes(dataAccessMode))
    problems.push(`DATA_ACCESS must be one of ${DATA_ACCESS_MODES.join(", ")}, got "${env.DATA_ACCESS}"`);
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  - ${problems.join("\n  - ")}`);
  return {
    port,
    host: env.HOST || "0.0.0.0",
    databaseUrl: env.DATABASE_URL as string,
    jwtSecret: env.JWT_SECRET as string,
    logLevel,
    poolSize,
    shutdownGraceMs: Number(env.SHUTDOWN_GRACE_MS ?? 10_000),
    dataAccessMode,
  };
}

/**
 * loadConfig for a process's entry point: a configuration it cannot start with is printed as its message alone
 * (no stack trace around it), and the process exits 2, as for any usage error.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
