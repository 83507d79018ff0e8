// Which database failures become the contract's 503 (the fault suite's outage found the ones Prisma wraps).
import { Prisma } from "@api-ref/db";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, translate } from "../src/errors.ts";

/** What Prisma 7 throws when the pg adapter's query fails: P2039 with PostgreSQL's error in meta. */
const adapterError = (code: string, message: string) =>
  new Prisma.PrismaClientKnownRequestError(`Database error. Code: \`${code}\`. Message: \`${message}\``, {
    code: "P2039",
    clientVersion: "7",
    meta: {
      modelName: "Order",
      driverAdapterError: {
        name: "DriverAdapterError",
        cause: { originalCode: code, originalMessage: message, kind: "postgres", code, severity: "FATAL", message },
      },
    },
  });

describe("isDatabaseUnavailable", () => {
  // PostgreSQL's error inside a Prisma adapter error: the codes of a database that is down, restarting, overloaded
  // or that gave up on the statement are unavailability (503, retry); the others are real errors (a 500, or the
  // route's own answer such as a 409 for a duplicate).
  it.each([
    ["57P01", "terminating connection due to administrator command", true],
    ["57P03", "the database system is starting up", true],
    ["08006", "connection failure", true],
    ["40001", "could not serialize access due to concurrent update", true],
    ["40P01", "deadlock detected", true],
    ["53300", "sorry, too many clients already", true],
    ["57014", "canceling statement due to statement timeout", true],
    ["23505", "duplicate key value violates unique constraint", false],
    ["23514", "new row violates check constraint", false],
    ["42P01", "relation does not exist", false],
  ])("%s (%s) inside a Prisma adapter error: %s", (code, message, unavailable) => {
    expect(isDatabaseUnavailable(adapterError(code, message))).toBe(unavailable);
  });

  it("is true for a refused connection anywhere in the cause chain", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(new Error("query failed", { cause: new Error("pool", { cause: refused }) }))).toBe(
      true,
    );
  });

  it("is true for node-postgres's connect timeout", () => {
    expect(isDatabaseUnavailable(new Error("timeout expired"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("statement timeout expired while doing something"))).toBe(false);
  });

  it("is true for node-postgres's client that lost its connection inside a transaction", () => {
    // pg throws a plain Error (no code) for a query on a client whose connection already failed.
    expect(isDatabaseUnavailable(new Error("Client has encountered a connection error and is not queryable"))).toBe(
      true,
    );
  });

  it("is true for Prisma's own unreachable, pool-timeout, transaction-timeout and write-conflict codes", () => {
    for (const code of ["P1001", "P2024", "P2028", "P2034"])
      expect(isDatabaseUnavailable(new Prisma.PrismaClientKnownRequestError("x", { code, clientVersion: "7" }))).toBe(
        true,
      );
  });

  it("is false for errors that are not the database's, and survives a cause cycle", () => {
    const a = new Error("a") as Error & { cause?: unknown };
    const b = new Error("b", { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe("translate", () => {
  it("turns an unreachable database into the unavailable problem and rethrows anything else unchanged", () => {
    expect(() => translate(adapterError("57P01", "terminating connection"))).toThrow(
      expect.objectContaining({ kind: "unavailable", headers: { "retry-after": "1" } }),
    );
    const other = new TypeError("boom");
    expect(() => translate(other)).toThrow(other);
  });
});
