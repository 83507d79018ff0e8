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

/** Where the wire form is checked before it is decoded: the base64url alphabet, bounded. */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,1024}$/;

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(sort: CursorSort, { key, id }: CursorPosition): string {
  return Buffer.from(JSON.stringify([sort, key, id]), "utf8").toString("base64url");
}

/** The cursor's key has the type its sort reads: a timestamp, a price, a name. */
function isKeyOf(sort: CursorSort, key: unknown): key is string | number {
  switch (SORT_KEYS[sort].field) {
    case "createdAt":
      return typeof key === "string" && TIMESTAMP.test(key) && !Number.isNaN(Date.parse(key));
    case "priceCents":
      return Number.isSafeInteger(key);
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
