// What every contract test file imports: the targets to run against, and small helpers over real HTTP.

import { fixtureUsers } from "@api-ref/db/fixtures";
import { bearerFor, NEEDS } from "@api-ref/harness";
import supertest from "supertest";
import { describe, inject, it } from "vitest";

export const contract = inject("contract");
export const targets = contract.targets;
export type Target = (typeof targets)[number];

/**
 * One suite per target, the targets side by side: each has its own server and database, so their checks cannot
 * meet, and a file takes about its slowest target's time instead of the sum (a check mostly waits on round trips).
 * A target's own checks run one after another, "in order", since later ones build on what earlier ones wrote.
 */
export function describeEachTarget(body: (target: Target) => void) {
  describe.each(targets)("$name", { concurrent: true }, (target) => {
    describe("in order", { concurrent: false }, () => body(target));
  });
}

/** A supertest agent bound to one target's base URL; its requests carry no token. */
export const http = (target: { url: string }) => supertest(target.url);

/** The seeded users the suite signs in as: the admin, and two customers (`buyer` owns the fixture orders). */
export type SeededUser = "admin" | "buyer" | "noOrders";

/**
 * The `authorization` header of a seeded user on `target`: a token the suite signs with the shared secret, or,
 * when the run does not know it (URL mode without JWT_SECRET), the one the target issued at login before the run.
 */
export function bearerOf(target: { name: string }, who: SeededUser): string {
  if (contract.jwtSecret) return bearerFor(contract.jwtSecret, fixtureUsers[who].id);
  const token = contract.logins?.[who];
  if (!token) throw new Error(`${target.name}: no token for ${who} (the seeded user could not log in before the run)`);
  return `Bearer ${token}`;
}

/** Who a request is from: a seeded user, or whoever an `authorization` header (e.g. from registration) names. */
export type Caller = SeededUser | { authorization: string };

/** Like `http`, with every request signed in as `who` (a seeded user) or with the given `authorization` header. */
export const httpAs = (target: { name: string; url: string }, who: Caller) =>
  supertest.agent(target.url).set("authorization", typeof who === "string" ? bearerOf(target, who) : who.authorization);

type Body = () => unknown;
// biome-ignore lint/suspicious/noExplicitAny: the row types of a table are the caller's
type RowBody = (...row: any[]) => unknown;

/**
 * `it` for a check that needs something the run may not have (the target's database, its JWT secret): when
 * `missing` is a reason, the check is skipped with that reason as its note, which the matrix reporter counts and
 * prints once. `.each(table)` spreads each row into the check like `it.each`.
 */
export function itNeeding(missing: string | null) {
  const check = (name: string, body: Body, timeout?: number) =>
    it(
      name,
      async (ctx) => {
        if (missing) ctx.skip(missing);
        await body();
      },
      timeout,
    );
  check.each =
    <T>(table: readonly T[]) =>
    (name: string, body: RowBody) =>
      it.for(table)(name, async (row, ctx) => {
        if (missing) ctx.skip(missing);
        await (Array.isArray(row) ? body(...row) : body(row));
      });
  return check;
}

/** Checks that read or write the target's database directly, and checks that forge tokens with its secret. */
export function checksNeeding(target: { databaseUrl: string | null }) {
  return {
    itDb: itNeeding(target.databaseUrl === null ? NEEDS.database : null),
    itSecret: itNeeding(contract.jwtSecret === "" ? NEEDS.jwtSecret : null),
  };
}
