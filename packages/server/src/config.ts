// The configuration every Node app reads from its environment, validated once at start-up.
import { DATA_ACCESS_MODES, type DataAccessMode } from "@api-ref/data-access";
import { poolSizeFromEnv, statementTimeoutFromEnv } from "@api-ref/db";

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string;
  jwtSecret: string;
  logLevel: string;
  poolSize: number;
  /** The bound on every statement, in ms (DB_STATEMENT_TIMEOUT_MS): past it PostgreSQL cancels it, a 503. */
  statementTimeoutMs: number;
  /** How long a graceful shutdown may take before the process gives up on in-flight requests. */
  shutdownGraceMs: number;
  /** Which query path the data access takes (DATA_ACCESS): Prisma's client API, or its raw-SQL path. */
  dataAccessMode: DataAccessMode;
  /** Requests one client address may make to each of register and login in AUTH_RATE_WINDOW_SECONDS (AUTH_RATE_LIMIT). */
  authRateLimit: number;
}

/** The window of the auth routes' rate limit: fixed, one minute. */
export const AUTH_RATE_WINDOW_SECONDS = 60;
const DEFAULT_AUTH_RATE_LIMIT = 10;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** RFC 7518 §3.2: an HS256 key of at least 256 bits. */
export const MIN_SECRET_BYTES = 32;

/** Secrets this repository has shipped as examples: known to everyone, so never a key (packages/python has the twin). */
export const PLACEHOLDER_SECRETS: readonly string[] = [
  "change-me-to-a-long-random-string",
  "compose-placeholder-secret-change-me",
];

/** Why JWT_SECRET cannot sign tokens, or nothing when it can. */
export function secretProblem(secret: string | undefined): string | undefined {
  if (!secret) return "JWT_SECRET is required (32 or more random bytes, e.g. `openssl rand -base64 32`)";
  if (PLACEHOLDER_SECRETS.includes(secret)) return "JWT_SECRET is a placeholder from this repository; set a random one";
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES)
    return `JWT_SECRET must be at least ${MIN_SECRET_BYTES} bytes, got ${Buffer.byteLength(secret)}`;
  return undefined;
}

/** A configuration the process cannot start with; its message lists every problem. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Reads PORT, HOST, DATABASE_URL, JWT_SECRET, LOG_LEVEL, DB_POOL_SIZE, DB_STATEMENT_TIMEOUT_MS, DATA_ACCESS,
 * AUTH_RATE_LIMIT; throws one message listing every problem.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be an integer 0–65535, got "${env.PORT}"`);
  if (!env.DATABASE_URL) problems.push("DATABASE_URL is required");
  else if (!/^postgres(ql)?:\/\/[^\s]+$/.test(env.DATABASE_URL) || !URL.canParse(env.DATABASE_URL))
    problems.push("DATABASE_URL must be a postgres:// or postgresql:// URL");
  const secret = secretProblem(env.JWT_SECRET);
  if (secret) problems.push(secret);
  const logLevel = env.LOG_LEVEL || "info";
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  let poolSize = 10;
  try {
    poolSize = poolSizeFromEnv(env);
  } catch (error) {
    problems.push((error as Error).message);
  }
  let statementTimeoutMs = 0;
  try {
    statementTimeoutMs = statementTimeoutFromEnv(env);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const dataAccessMode = (env.DATA_ACCESS || "client") as DataAccessMode;
  if (!DATA_ACCESS_MODES.includes(dataAccessMode))
    problems.push(`DATA_ACCESS must be one of ${DATA_ACCESS_MODES.join(", ")}, got "${env.DATA_ACCESS}"`);
  const authRateLimit = Number(env.AUTH_RATE_LIMIT || DEFAULT_AUTH_RATE_LIMIT);
  if (!Number.isSafeInteger(authRateLimit) || authRateLimit < 1)
    problems.push(`AUTH_RATE_LIMIT must be a whole number of requests, 1 or more, got "${env.AUTH_RATE_LIMIT}"`);
  if (problems.length === 1) throw new ConfigError(`invalid configuration: ${problems[0]}`);
  if (problems.length > 1) throw new ConfigError(`invalid configuration:\n  - ${problems.join("\n  - ")}`);
  return {
    port,
    host: env.HOST || "0.0.0.0",
    databaseUrl: env.DATABASE_URL as string,
    jwtSecret: env.JWT_SECRET as string,
    logLevel,
    poolSize,
    statementTimeoutMs,
    shutdownGraceMs: Number(env.SHUTDOWN_GRACE_MS ?? 10_000),
    dataAccessMode,
    authRateLimit,
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
