// How lists are read, the same for every resource and both query paths: filters, order, where the page starts (an
// offset, or after a cursor's row), and the answer with its nextCursor.
import {
  type CursorPosition,
  type CursorSort,
  DEFAULT_PAGE,
  decodeCursor,
  type ListWindow,
  type Page,
  pageOf,
  problem,
  SORT_KEYS,
} from "@api-ref/contract";
import { translate } from "./errors.ts";

export type { ListWindow };

/** Escapes LIKE wildcards so that `q` matches as a literal substring (`50%` finds "50%", not "50" + anything). */
export const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A case-insensitive literal substring filter (ILIKE '%q%', served by the trigram indexes). */
export const containsInsensitive = (q: string) => ({ contains: escapeLike(q), mode: "insensitive" as const });

/** The ILIKE pattern of `containsInsensitive` for hand-written SQL: `%q%` with q's wildcards escaped. */
export const likePattern = (q: string) => `%${escapeLike(q)}%`;

/** Users and orders are listed newest first; products may choose. */
export const NEWEST_FIRST = "-createdAt" satisfies CursorSort;

/** Prisma's orderBy for a sort: its key, then id ascending, so that pages never overlap or skip a row. */
export const orderByOf = (sort: CursorSort) => {
  const { field, descending } = SORT_KEYS[sort];
  return [{ [field]: descending ? "desc" : "asc" }, { id: "asc" as const }];
};

/** The paging every list query carries (the contract's `paging`). */
export interface Paging {
  page?: number | undefined;
  limit: number;
  cursor?: string | undefined;
  total: boolean;
}

export function listWindow({ page, limit, cursor, total }: Paging, sort: CursorSort): ListWindow {
  if (cursor === undefined) {
    const pageNumber = page ?? DEFAULT_PAGE;
    return { sort, limit, page: pageNumber, offset: (pageNumber - 1) * limit, after: undefined, total };
  }
  // The contract's schema refuses these first, with the same paths; this guards callers that pass a query it did not
  // parse (apps' tests, the fake).
  if (page !== undefined) throw invalidQuery("query.page", "cannot be combined with cursor");
  const after = decodeCursor(cursor, sort);
  if (!after) throw invalidQuery("query.cursor", "must be the nextCursor of a list in the same sort");
  return { sort, limit, page: null, offset: 0, after, total };
}

const invalidQuery = (path: string, message: string) =>
  problem("validation", "The request query is not valid.", { errors: [{ path, message }] });

/** The sort key's value as a query compares it: a Date for timestamps, else as the cursor holds it. */
export const keyValue = (sort: CursorSort, { key }: CursorPosition) =>
  SORT_KEYS[sort].field === "createdAt" ? new Date(key) : key;

/**
 * Prisma's `where` for the rows after a cursor's row: past its key, or at its key with a greater id. The redundant
 * bound (`lte`/`gte` the key) is what lets PostgreSQL start the index scan at the cursor rather than filter to it.
 */
export function afterWhere(window: ListWindow) {
  if (!window.after) return {};
  const { field, descending } = SORT_KEYS[window.sort];
  const key = keyValue(window.sort, window.after);
  return {
    AND: [
      { [field]: descending ? { lte: key } : { gte: key } },
      { OR: [{ [field]: descending ? { lt: key } : { gt: key } }, { [field]: key, id: { gt: window.after.id } }] },
    ],
  };
}

/** Prisma's `skip`/`take`: one row more than the page, whose presence says a next page exists. */
export const takeWindow = (window: ListWindow) => ({ skip: window.offset, take: window.limit + 1 });

/**
 * A list's answer, the contract's page, from the rows read with `takeWindow` (up to limit + 1) and, when asked,
 * the count (both asked at once, on two connections); a database failure becomes its problem.
 */
export async function answerList<Row, T extends { id: string }>(
  window: ListWindow,
  rows: PromiseLike<Row[]>,
  count: PromiseLike<number> | undefined,
  toDto: (row: Row) => T,
): Promise<Page<T>> {
  const [found, total] = await Promise.all([rows, count]).catch(translate);
  return pageOf(window, found, total, toDto);
}
