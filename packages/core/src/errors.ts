// Database errors become the contract's problems here, once, so that every framework maps them the same way.
import { ProblemError, problem } from "@api-ref/contract";
import { Prisma } from "@api-ref/db";

const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
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
]);

/** True when the error means PostgreSQL could not be reached (so the answer is 503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof Prisma.PrismaClientInitializationError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || CONNECTION_ERRNOS.has(code))) return true;
    const kind = (e as { kind?: unknown }).kind;
    if (
      kind === "DatabaseNotReachable" ||
      kind === "ConnectionClosed" ||
      kind === "SocketTimeout" ||
      kind === "TooManyConnections"
    )
      return true;
    const message = (e as { message?: unknown }).message;
    if (
      typeof message === "string" &&
      /Connection terminated|connect ECONNREFUSED|Can't reach database server|timeout exceeded when trying to connect/i.test(
        message,
      )
    )
      return true;
  }
  return false;
}

export const isUniqueViolation = (e: unknown) =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
export const isForeignKeyViolation = (e: unknown) =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2003";
export const isRecordNotFound = (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025";

/** Lets a ProblemError through, turns an unreachable database into a 503 and rethrows anything else as it is. */
export function translate(error: unknown): never {
  if (error instanceof ProblemError) throw error;
  if (isDatabaseUnavailable(error))
    throw problem("unavailable", "The database cannot be reached; try again shortly.", { cause: error });
  throw error;
}
