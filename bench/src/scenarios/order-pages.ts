// Where a page of GET /orders?include=user,product starts: orders-cursor-walk (nextCursor: 21 rows read from the
// cursor's row however deep, in two index ranges: its instant with a greater id, then the instants past it) and
// orders-deep-page (page=N among the last: an OFFSET reading every row before it). Each page must hold the seeded copy's orders, read once per run (runner/database.ts reads the rows named here); the read
// scenarios run before any write, so every server's copy still holds them.
import { createHash } from "node:crypto";
import { encodeCursor, type Order, OrderList, type Page } from "@api-ref/contract";
import { fixtureUsers } from "@api-ref/db/fixtures";
import { bearerCache } from "@api-ref/harness";
import {
  cursorAfter,
  firstProblem,
  getJson,
  listProblem,
  NEWEST_FIRST,
  POOL_SIZE,
  relationsProblem,
  signedIn,
  times,
} from "./requests.ts";
import type { BenchRequest, OrderPages, PageReference, Pools, Rng, Step, WalkEntry } from "./types.ts";

/** Rows a page of both scenarios holds (the contract's default limit, as orders-list). */
export const PAGE_LIMIT = 20;
/** Pages in one walk: a connection's sequence (autocannon starts its context afresh after the last step). */
export const WALK_PAGES = 8;
/**
 * Where walks start, one after another: the first page, one that reaches the end, the rest spread over the list.
 * A walk from page 1 alone would read only the first pages in a cell of a few seconds; spread, every depth is read.
 */
export const WALK_ENTRIES = 64;
/** How far before the end the second entry starts: 3½ pages, so its walk ends on a short page and starts over. */
const WRAP_BEFORE_END = 3.5 * PAGE_LIMIT;
/** The deep pages: the list's last ten. */
export const DEEP_PAGES = 10;

/** One page of the list: its rows' positions [from, to) newest first, and whether a row follows it. */
export interface PageSpan {
  from: number;
  to: number;
  more: boolean;
}

/** The pages a walk reads from position `start`: WALK_PAGES pages, starting over at the first after the last. */
export function walkSpans(start: number, total: number): PageSpan[] {
  const spans: PageSpan[] = [];
  let from = start;
  for (let i = 0; i < WALK_PAGES; i++) {
    const to = Math.min(from + PAGE_LIMIT, total);
    spans.push({ from, to, more: to < total });
    from = to < total ? to : 0;
  }
  return spans;
}

/** The position of each entry's first row. */
export function entryStarts(total: number): number[] {
  const spread = times(WALK_ENTRIES - 2, (i) => Math.floor(((i + 1) * total) / (WALK_ENTRIES - 1)));
  return [0, Math.max(0, total - WRAP_BEFORE_END), ...spread];
}

/** The deep pages' numbers and spans: the last DEEP_PAGES pages of the list. */
export function deepSpans(total: number): Array<PageSpan & { page: number }> {
  const pages = Math.ceil(total / PAGE_LIMIT);
  const first = Math.max(1, pages - DEEP_PAGES + 1);
  return times(Math.max(0, pages - first + 1), (i) => {
    const from = (first + i - 1) * PAGE_LIMIT;
    const to = Math.min(from + PAGE_LIMIT, total);
    return { page: first + i, from, to, more: to < total };
  });
}

/** Every position whose row the references need: each entry's row before its start (its cursor) and every page's. */
export function positionsNeeded(total: number): number[] {
  const positions = new Set<number>();
  const add = ({ from, to }: PageSpan) => {
    for (let p = from; p < to; p++) positions.add(p);
  };
  for (const start of entryStarts(total)) {
    if (start > 0) positions.add(start - 1);
    walkSpans(start, total).forEach(add);
  }
  deepSpans(total).forEach(add);
  return [...positions].sort((a, b) => a - b);
}

/** An order as the references need it: its id and its createdAt as the contract prints it. */
export interface OrderKey {
  id: string;
  createdAt: string;
}

export const digestOf = (ids: readonly string[]) => createHash("sha1").update(ids.join(",")).digest("hex").slice(0, 16);

/** The references, from the rows at positionsNeeded(total) (newest first, ties by id: the list's order). */
export function orderPagesFrom(total: number, rows: ReadonlyMap<number, OrderKey>): OrderPages {
  const at = (position: number) => {
    const row = rows.get(position);
    if (!row) throw new Error(`order pages: no order at position ${position} of ${total}`);
    return row;
  };
  const reference = ({ from, to, more }: PageSpan): PageReference => {
    const ids = times(to - from, (i) => at(from + i).id);
    return { digest: digestOf(ids), firstId: ids[0] ?? "none", more };
  };
  const walkEntries = entryStarts(total).map(
    (start): WalkEntry => ({
      cursor: start > 0 ? encodeCursor(NEWEST_FIRST, { key: at(start - 1).createdAt, id: at(start - 1).id }) : null,
      pages: walkSpans(start, total).map(reference),
    }),
  );
  const deepPages = deepSpans(total).map((span) => ({ page: span.page, ...reference(span) }));
  return { total, walkEntries, deepPages };
}

/** No seeded copy (framework scenarios only): nothing to walk. */
export const NO_ORDER_PAGES: OrderPages = { total: 0, walkEntries: [], deepPages: [] };

// ---- what a correct page is -------------------------------------------------------------------------------------

/** The page holds the seeded copy's orders for it, in order, and continues after its last exactly when one follows. */
export function seededPageProblem(body: unknown, expected: PageReference | undefined): string | undefined {
  if (!expected) return "no reference for this page (the seeded orders were not read)";
  const { data, nextCursor } = body as Page<Order>;
  const ids = data.map((o) => o.id);
  if (digestOf(ids) !== expected.digest) {
    return `not the seeded page from order ${expected.firstId}: ${ids.length} orders from ${ids[0] ?? "none"}`;
  }
  const last = data.at(-1);
  const next = expected.more && last ? cursorAfter(NEWEST_FIRST, last) : null;
  if (nextCursor === next) return undefined;
  return `nextCursor is ${JSON.stringify(nextCursor)}, expected ${next ?? "null (no order follows)"}`;
}

/** A page of a walk: page 1 without a cursor, null with one; the seeded orders that follow the page before. */
export function walkPageProblem(body: unknown, cursor: string | undefined, expected: PageReference | undefined) {
  const { page, data } = body as Page<Order>;
  const pageExpected = cursor === undefined ? 1 : null;
  return firstProblem(
    page === pageExpected ? undefined : `page is ${page}, expected ${pageExpected}`,
    listProblem(body, PAGE_LIMIT, NEWEST_FIRST),
    relationsProblem(data),
    seededPageProblem(body, expected),
  );
}

// ---- the scenarios' requests ------------------------------------------------------------------------------------

const INCLUDE = "user,product";

/** The walk's next page: the first when there is no cursor. */
export const walkPath = (cursor: string | undefined) =>
  `/orders?limit=${PAGE_LIMIT}&include=${INCLUDE}${cursor === undefined ? "" : `&cursor=${cursor}`}`;

/**
 * The nextCursor of a list's answer, read from its end (the contract's last field) rather than by parsing it: the
 * load generator reads one from every answer, each some 20 kB of orders with their users and products.
 */
const NEXT_CURSOR = /"nextCursor"\s*:\s*(?:null|"([A-Za-z0-9_-]{1,1024})")\s*\}\s*$/;
export const nextCursorOf = (body: string) => NEXT_CURSOR.exec(body.slice(-1100))?.[1];

/**
 * orders-cursor-walk: each step is the next page of the connection's walk, from the next entry in turn (so that the
 * first walks, the verified ones too, start at the first page and near the end), with the cursor the page before
 * answered; after the last page, the first. The context holds the entry, the pages read and the cursor.
 */
export function cursorWalkSteps(pools: Pools): Step[] {
  const { walkEntries } = pools.orderPages;
  const admin = bearerCache(pools.jwtSecret)(fixtureUsers.admin.id);
  let entered = 0;
  const step: Step = {
    label: "GET /orders?include=user,product&cursor=… (the walk's next page)",
    build: (ctx) => {
      if (ctx.entry === undefined) {
        ctx.entry = String(entered++ % Math.max(1, walkEntries.length));
        ctx.cursor = walkEntries[Number(ctx.entry)]?.cursor ?? undefined;
      }
      const read = Number(ctx.read ?? 0);
      ctx.read = String(read + 1);
      const { cursor } = ctx;
      const expected = walkEntries[Number(ctx.entry)]?.pages[read];
      const request = getJson(walkPath(cursor), OrderList, (body) => walkPageProblem(body, cursor, expected));
      return signedIn(request, admin);
    },
    onResponse: (_status, body, ctx) => {
      ctx.cursor = nextCursorOf(body);
    },
  };
  return times(WALK_PAGES, () => step);
}

/** orders-deep-page: GET /orders?page=N of the list's last pages, each answer the seeded page N. */
export function deepPageRequests(pools: Pools, rng: Rng): BenchRequest[] {
  const admin = bearerCache(pools.jwtSecret)(fixtureUsers.admin.id);
  return times(POOL_SIZE, () => {
    const expected = rng.pick(pools.orderPages.deepPages);
    const path = `/orders?page=${expected.page}&limit=${PAGE_LIMIT}&include=${INCLUDE}`;
    const request = getJson(path, OrderList, (body) => {
      const { page, data } = body as Page<Order>;
      return firstProblem(
        page === expected.page ? undefined : `page is ${page}, expected ${expected.page}`,
        listProblem(body, PAGE_LIMIT, NEWEST_FIRST),
        relationsProblem(data),
        seededPageProblem(body, expected),
      );
    });
    return signedIn(request, admin);
  });
}
