// What every contract test file imports: the targets to run against, and small helpers over real HTTP.

import { NEEDS } from "@api-ref/harness";
import supertest from "supertest";
import { inject, it } from "vitest";

export const contract = inject("contract");
export const targets = contract.targets;

/** A supertest agent bound to one target's base URL. */
export const http = (target: { url: string }) => supertest(target.url);

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
