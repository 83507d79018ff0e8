// Indexes proven, not assumed: every list of the contract in every filter, sort and way of paging, and every lookup,
// run through the data access in both query paths on a database seeded at catalogue.json's scale, with the plan of
// every statement PostgreSQL executes (auto_explain: the real text, the real parameters, the plan the server chose,
// with the rows each node really read; see plans/tap.ts) judged by one rule:
//
//   - no Seq Scan of a growing table (users, products, orders);
//   - no scan of one that reads (returns, or throws away by filter or recheck) more than ROWS_BOUND rows;
//   - no Sort of more than ROWS_BOUND rows read from one. An Incremental Sort over an index in order, or a Sort of a
//     bounded set, passes: what fails is a list that reads the table to order it.
//
// The scale (10: 10,000 users, 50,000 products, 100,000 orders) is the smallest at which the smallest growing table
// holds ten times ROWS_BOUND, so that a statement reading a table whole cannot pass, and at which PostgreSQL plans
// every list as for a large table (at 5 it still reads all 5,000 users by Seq Scan for a search's deep page, the
// right plan for a table that small). What the contract documents as growing with the data (a count, an OFFSET, a
// substring search) passes only through an allowance of catalogue.json, each with its reason; anything else fails
// by default, named by its route and query. A cursor amid rows that share its sort key is a case of its own
// (catalogue.json's `ties`: runs of 1,100 such rows made in the seeded data, the cursor after 1,050 of them), judged
// by the same rule: a page that read the run's rows before its cursor and threw them away would read more than
// ROWS_BOUND. packages/python/tests/test_plans.py runs the same catalogue through the Python twin. One file: pnpm exec vitest run --project data-access test/plans.test.ts
import type { PostgresServer } from "@api-ref/db/provision";
import { sql } from "@api-ref/db/sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataAccess, DATA_ACCESS_MODES, type DataAccess } from "../src/index.ts";
import { type Callers, callersOf, LOOKUP_CALLS, type LookupContext, readList } from "./plans/calls.ts";
import {
  caseName,
  LIST_CASES,
  type ListCase,
  LOOKUPS,
  type Names,
  named,
  ROWS_BOUND,
  readNames,
  TIE_CASES,
  tiedQuery,
} from "./plans/catalogue.ts";
import { startExplainedDatabase } from "./plans/database.ts";
import { type PlanTap, startPlanTap } from "./plans/tap.ts";
import { ALLOWANCES, type Allowance, judge, outline, violationsOf } from "./plans/verdict.ts";

let server: PostgresServer;
let tap: PlanTap;
let names: Names;
let callers: Callers;
const used = new Set<Allowance>();
/** A count of 100,000 orders or a login's scrypt, on a machine busy with every other suite. */
const CASE_TIMEOUT_MS = 30_000;

beforeAll(async () => {
  const database = await startExplainedDatabase("data_access_plans", { log() {} });
  server = database.server;
  tap = await startPlanTap(database.url);
  names = await readNames(database.url);
  callers = callersOf(names);
}, 180_000);

afterAll(async () => {
  await tap?.close();
  await server?.stop();
});

/** Runs `call` and judges every statement it made: the failures, each naming the case, what is wrong, the plan. */
async function judgeCall(name: string, params: URLSearchParams, call: () => Promise<unknown>) {
  tap.take();
  await call();
  const statements = tap.take();
  if (statements.length === 0) return [`${name}: no statement was explained (is auto_explain loaded?)`];
  return statements.flatMap((statement) => {
    const verdict = judge(params, statement, ROWS_BOUND);
    for (const allowance of verdict.used) used.add(allowance);
    if (verdict.failures.length === 0) return [];
    const details = verdict.failures.map((failure) => failure.detail).join("; ");
    return [`${name}: ${details}\n${statement["Query Text"]}\n${outline(statement.Plan)}`];
  });
}

/** The query a case reads, its {names} filled in and its {cursor} fetched from the same list read deeper. */
async function caseQuery(da: DataAccess, listCase: ListCase): Promise<string> {
  const query = named(listCase.query, { ...names });
  if (!query.includes("{cursor}")) return query;
  const rest = query.replace(/&?cursor=\{cursor\}/, "");
  const from = async (paging: string) =>
    (await readList(da, callers, listCase, [rest, paging].filter(Boolean).join("&"))).nextCursor;
  const cursor = (await from("page=100")) ?? (await from("limit=1"));
  if (!cursor) throw new Error(`${caseName(listCase)}: the list has no second row to start after`);
  return query.replace("{cursor}", encodeURIComponent(cursor));
}

describe.each(DATA_ACCESS_MODES)("%s mode", (mode) => {
  let da: DataAccess;
  beforeAll(() => {
    // One connection: the calls run one at a time, and a list's count waits for its page.
    da = createDataAccess({
      databaseUrl: tap.url,
      jwtSecret: "plans-test-secret-0123456789abcdef",
      poolSize: 1,
      dataAccessMode: mode,
    });
  });
  afterAll(() => da?.close());

  /** Reads `listCase` at `query`; every statement it made must pass the rule. */
  async function expectBounded(name: string, listCase: ListCase, query: string) {
    const failures = await judgeCall(`${name} (${mode} mode)`, new URLSearchParams(query), () =>
      readList(da, callers, listCase, query),
    );
    expect(failures, failures.join("\n\n")).toEqual([]);
  }

  it.each(LIST_CASES.map((c) => [caseName(c), c] as const))(
    `%s (${mode} mode) reads a bounded number of rows`,
    async (name, listCase) => expectBounded(name, listCase, await caseQuery(da, listCase)),
    CASE_TIMEOUT_MS,
  );

  it.each(TIE_CASES.map((c) => [caseName(c), c] as const))(
    `%s, the cursor amid rows that share its key (${mode} mode), reads from its row`,
    async (name, tieCase) => expectBounded(name, tieCase, await tiedQuery(tap.url, tieCase)),
    CASE_TIMEOUT_MS,
  );

  const created: LookupContext["created"] = {};
  it.each(LOOKUPS)(
    `%s (${mode} mode) finds its rows by an index`,
    async (lookup) => {
      const call = LOOKUP_CALLS[lookup];
      if (!call) throw new Error(`the catalogue's lookup "${lookup}" has no call in plans/calls.ts`);
      const context = { da, callers, names, created, key: `plans-${mode}` };
      const failures = await judgeCall(`${lookup} (${mode} mode)`, new URLSearchParams(), () => call(context));
      expect(failures, failures.join("\n\n")).toEqual([]);
    },
    CASE_TIMEOUT_MS,
  );
});

describe("the rule and its allowances", () => {
  it("catches a list that reads a whole table to sort it, at this scale", async () => {
    tap.take();
    await sql(tap.url, "SELECT id FROM orders ORDER BY total_cents DESC, id LIMIT 21");
    const [statement] = tap.take();
    const kinds = new Set(statement && violationsOf(statement.Plan, ROWS_BOUND).map((v) => v.kind));
    expect(kinds).toEqual(new Set(["seq-scan", "sort"]));
  });

  it("uses every allowance: one no statement needs is stale", () => {
    expect(ALLOWANCES.filter((a) => !used.has(a)).map((a) => a.why)).toEqual([]);
  });
});
