// A list's cursor (docs/api.md, "Lists"): where the next page starts, as the sort it was read in, the last row's
// sort key and its id. It is opaque to clients but not secret: base64url (no padding) of the compact JSON array
// `[sort, key, id]`. packages/python/api_contract/cursor.py writes the same bytes, so that every row answers the
// same nextCursor and accepts the others'.
import { Buffer } from "node:buffer";

/** Every order a list can be read in: the products' sorts; users and orders are always newest first. */
export type CursorSort = "createdAt" | "-createdAt" | "priceCents" | "-priceCents" | "name";

/** The sort key of the last row read (`createdAt` as the contract prints it, `priceCents`, `name`) and its id. */
export interface CursorPosition {
  key: string | number;
  id: string;
}

/** The column a sort reads and its direction; every sort breaks ties by `id` ascending. */
export const SORT_KEYS = {
  createdAt: { field: "createdAt", descending: false },
  "-createdAt": { field: "createdAt", descending: true },
  priceCents: { field: "priceCents", descending: false },
  "-priceCents": { field: "priceCents", descending: true },
  name: { field: "name", descending: false },
} as const satisfies Record<CursorSort, { field: string; descending: boolean }>;

/**
 * Where the wire form is checked before it is decoded: the base64url alphabet, bounded. The longest cursor this API
 * writes is a name-sort one whose 200-character name is all control characters (6 bytes each once JSON escapes them):
 * about 1,700 characters, well inside 2,048.
 */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,2048}$/;

/** The highest price a product can have (schemas.ts's MAX_PRICE_CENTS; not imported, this module loads no Zod). */
const MAX_KEY_PRICE_CENTS = 100_000_000;

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(sort: CursorSort, { key, id }: CursorPosition): string {
  return Buffer.from(JSON.stringify([sort, key, id]), "utf8").toString("base64url");
}

/**
 * A timestamp as the contract prints it, of a day that exists, in years 1–9999: it must print back to itself
 * (Date.parse reads 2025-02-30 as 2 March, and 24:00 as the next midnight; PostgreSQL refuses both, and year 0).
 */
function isInstant(key: string): boolean {
  const time = Date.parse(key);
  return TIMESTAMP.test(key) && !key.startsWith("0000") && !Number.isNaN(time) && new Date(time).toISOString() === key;
}

/** The cursor's key has the type its sort reads: a timestamp, a price, a name. */
function isKeyOf(sort: CursorSort, key: unknown): key is string | number {
  switch (SORT_KEYS[sort].field) {
    case "createdAt":
      return typeof key === "string" && isInstant(key);
    case "priceCents":
      return Number.isInteger(key) && (key as number) >= 0 && (key as number) <= MAX_KEY_PRICE_CENTS;
    case "name":
      return typeof key === "string" && key.isWellFormed();
  }
}

/**
 * The position a cursor names, or undefined when it is not one this API gave for a list in `sort`. Only what
 * encodeCursor writes is accepted (the decoded position must encode back to the very same string), so that the
 * leniencies of base64 and JSON decoders never make two languages disagree on a cursor.
 */
export function decodeCursor(cursor: string, sort: CursorSort): CursorPosition | undefined {
  if (!CURSOR_PATTERN.test(cursor)) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) return undefined;
  const [cursorSort, key, id] = decoded as unknown[];
  if (cursorSort !== sort || typeof id !== "string" || !GUID.test(id) || !isKeyOf(sort, key)) return undefined;
  const position = { key, id };
  return encodeCursor(sort, position) === cursor ? position : undefined;
}

/** A list's paging, resolved: where the page starts, how many rows it holds, whether the total is counted. */
export interface ListWindow {
  sort: CursorSort;
  limit: number;
  /** The page number when the list is read by page; null when it is read by cursor. */
  page: number | null;
  /** Rows skipped before the page (page mode; 0 by cursor). */
  offset: number;
  /** The row the page starts after (cursor mode). */
  after: CursorPosition | undefined;
  total: boolean;
}

/** The cursor that continues a list after `item`, as answered (`createdAt` as the contract prints it). */
function cursorAfter(sort: CursorSort, item: { id: string }): string {
  const key = (item as unknown as Record<string, string | number>)[SORT_KEYS[sort].field] as string | number;
  return encodeCursor(sort, { key, id: item.id });
}

/**
 * A list's answer (the contract's page) from the rows read for `window`, up to limit + 1 (the extra one says a next
 * page exists), and the count when it was asked for: at most `limit` items, and the cursor after the last.
 */
export function pageOf<Row, T extends { id: string }>(
  window: ListWindow,
  rows: readonly Row[],
  total: number | undefined,
  toItem: (row: Row) => T,
) {
  const data = rows.slice(0, window.limit).map(toItem);
  const last = data.at(-1);
  return {
    data,
    page: window.page,
    limit: window.limit,
    total: total ?? null,
    pages: total === undefined ? null : Math.ceil(total / window.limit),
    nextCursor: rows.length > window.limit && last ? cursorAfter(window.sort, last) : null,
  };
}
