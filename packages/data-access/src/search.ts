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
 * The two index ranges that follow a cursor's row, in the sort's order: its key with a greater id, then the keys
 * past it. Read apart, each starts where its rows do; one `OR` of the two would make PostgreSQL read, and throw
 * away, every row that shares the cursor's key before it (docs/api.md, "Lists").
 */
export function seekRanges(sort: CursorSort, after: CursorPosition) {
  const { field, descending } = SORT_KEYS[sort];
  const key = keyValue(sort, after);
  const atKey = { [field]: key, id: { gt: after.id } };
  return [atKey, { [field]: descending ? { lt: key } : { gt: key } }] satisfies [object, object];
}

/** Prisma's findMany arguments for one read of a list's window, on a model whose filter type is `Where`. */
export interface WindowRead<Where> {
  where: { AND: Where[] };
  orderBy: ReturnType<typeof orderByOf>;
  skip: number;
  take: number;
}

/**
 * A list's rows in its window, up to limit + 1 (the one past the page says that a next page exists), read by `find`:
 * once, from the top or past a page number's offset; after a cursor, the rows at its key first, and only when they
 * do not fill the window the keys past it. One statement where the cursor's key has rows enough to fill the page
 * (a run of tied rows, the pages that would otherwise throw most away), two elsewhere; each with the relations
 * `find` includes, so a page whose first read comes back empty asks for no relations of it.
 */
export async function findWindow<Where, Row>(
  window: ListWindow,
  where: Where,
  find: (read: WindowRead<Where>) => PromiseLike<Row[]>,
): Promise<Row[]> {
  const orderBy = orderByOf(window.sort);
  const take = window.limit + 1;
  if (!window.after) return find({ where: { AND: [where] }, orderBy, skip: window.offset, take });
  // The ranges are conditions on the model's own fields (its sort key and id): `Where`s.
  const [atKey, pastKey] = seekRanges(window.sort, window.after) as [Where, Where];
  const tied = await find({ where: { AND: [where, atKey] }, orderBy, skip: 0, take });
  if (tied.length === take) return tied;
  const past = await find({ where: { AND: [where, pastKey] }, orderBy, skip: 0, take: take - tied.length });
  return [...tied, ...past];
}

/**
 * A list's answer, the contract's page, from the rows read with `findWindow` (up to limit + 1) and, when asked,
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
