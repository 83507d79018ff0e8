// Database errors become the contract's problems here, once, so that every framework maps them the same way.
import { ProblemError, problem } from "@api-ref/contract";
import { Prisma } from "@api-ref/db";

/**
 * Prisma's codes for failures that are not the request's fault and may pass: the server unreachable or timing out
 * (P1001, P1002, P1008, P1017), no pool connection in time (P2024), an interactive transaction that outlived its
 * timeout or was closed under it (P2028), a write conflict or deadlock (P2034).
 */
const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028", "P2034"]);
const CONNECTION_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08006",
  // Transient failures of a healthy server: serialization failure and deadlock (class 40), insufficient resources
  // (class 53: too many connections, out of memory, disk full), a statement cancelled by its timeout (57014), a
  // lock not available in time (55P03).
  "40001",
  "40P01",
  "53000",
  "53100",
  "53200",
  "53300",
  "57014",
  "55P03",
]);

/** node-postgres's and pg-pool's words for a connection that failed or never opened. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connect ECONNREFUSED|Can't reach database server|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable/i;

/**
 * True when the error is a data-access failure that is not the client's fault and may pass: PostgreSQL could not
 * be reached, or could not do the work in time (a transaction past its timeout, a deadlock, no connection left).
 * The answer is then a 503 with `retry-after`, never a 500. The PostgreSQL error
 * can sit in an error's `cause` chain or, for a query that failed in the driver adapter, in a Prisma error's
 * `meta.driverAdapterError` (P2039 carrying `57P01 terminating connection due to administrator command` while the
 * server shuts down, `57P03 the database system is starting up` while it comes back). `timeout expired` is
 * node-postgres's connect timeout (CONNECT_TIMEOUT_MS in packages/db's client).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 12) {
    const e = pending.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    if (e instanceof Prisma.PrismaClientInitializationError) return true;
    const { code, kind, message, cause, meta } = e as {
      code?: unknown;
      kind?: unknown;
      message?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || CONNECTION_ERRNOS.has(code))) return true;
    if (
      kind === "DatabaseNotReachable" ||
      kind === "ConnectionClosed" ||
      kind === "SocketTimeout" ||
      kind === "TooManyConnections"
    )
      return true;
    if (typeof message === "string" && (UNAVAILABLE_MESSAGE.test(message) || message === "timeout expired"))
      return true;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}

/**
 * A failed raw query's PostgreSQL SQLSTATE (`$queryRaw`, DATA_ACCESS=sql): Prisma reports it as P2010 "Raw query
 * failed", with the database's code in `meta.driverAdapterError.cause.originalCode`, where the client API has
 * P2002, P2003….
 */
const rawQueryState = (e: Prisma.PrismaClientKnownRequestError) =>
  e.code === "P2010"
    ? (e.meta as { driverAdapterError?: { cause?: { originalCode?: unknown } } } | undefined)?.driverAdapterError?.cause
        ?.originalCode
    : undefined;

export const isUniqueViolation = (e: unknown) =>
  e instanceof Prisma.PrismaClientKnownRequestError && (e.code === "P2002" || rawQueryState(e) === "23505");
export const isForeignKeyViolation = (e: unknown) =>
  e instanceof Prisma.PrismaClientKnownRequestError && (e.code === "P2003" || rawQueryState(e) === "23503");
export const isRecordNotFound = (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025";

/** Lets a ProblemError through, turns a transient data-access failure into a 503 and rethrows anything else as it is. */
export function translate(error: unknown): never {
  if (error instanceof ProblemError) throw error;
  if (isDatabaseUnavailable(error))
    throw problem("unavailable", "The database cannot answer right now; try again shortly.", { cause: error });
  throw error;
}

/** 503 for an error `isDatabaseUnavailable` recognises. */
export const databaseUnavailable = () => problem("unavailable", "The database cannot be reached; try again shortly.");
/** 500 for anything else: no details leave the process. */
export const internalError = () => problem("internal", "An unexpected error occurred.");

/** The two pino methods `unexpectedProblem` uses (any pino `Logger` fits). */
export interface ErrorLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The last step of every app's error handler, for an error that is none of the contract's or the framework's own:
 * 503 when the database cannot be reached (logged as a warning), else 500 (logged as an error, with no details in
 * the response).
 */
export function unexpectedProblem(error: unknown, log: ErrorLogger): ProblemError {
  if (isDatabaseUnavailable(error)) {
    log.warn({ err: error }, "database unavailable");
    return databaseUnavailable();
  }
  log.error({ err: error }, "unhandled error");
  return internalError();
}
