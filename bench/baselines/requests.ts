// How both database baselines read a request: the path id, paging and filters, and the bodies the database
// scenarios send, checked by hand (no schema library) as the contract asks. Shared so that the two baselines
// differ only in their data access (raw pg or packages/data-access on Prisma).
import {
  CURSOR_PATTERN,
  type CursorPosition,
  type CursorSort,
  decodeCursor,
  type ListWindow,
} from "@api-ref/contract/cursor";
import { invalid, UUID } from "./common.ts";

type Row = Record<string, unknown>;

export const STATUSES = ["pending", "shipped", "delivered", "cancelled"];

export function id(raw: string | undefined) {
  if (!raw || !UUID.test(raw)) throw invalid("params.id", "must be a UUID");
  return raw;
}

export function intParam(url: URL, key: string, min: number, max: number, fallback?: number) {
  const raw = url.searchParams.get(key);
  if (raw === null) {
    if (fallback === undefined) return undefined;
    return fallback;
  }
  if (!/^[0-9]{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw invalid(`query.${key}`, `must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

/** The contract's one message for every cursor it refuses (packages/contract/src/schemas.ts). */
const INVALID_CURSOR = "must be the nextCursor of a list in the same sort";

/** A list's paging as the request gives it: `page` or `cursor` (never both), `limit`, and whether to count. */
export interface Paging {
  page: number | undefined;
  limit: number;
  cursor: string | undefined;
  total: boolean;
}

function boolParam(url: URL, key: string) {
  const raw = url.searchParams.get(key);
  if (raw !== null && raw !== "true" && raw !== "false") throw invalid(`query.${key}`, "must be true or false");
  return raw === "true";
}

/**
 * A list's paging, checked as the contract's `paging` and `pagingRules` check it: each parameter first, then not a
 * cursor beside a page, then a cursor this list gave in `sort`.
 */
export function paging(url: URL, sort: CursorSort): Paging & { after: CursorPosition | undefined } {
  const page = intParam(url, "page", 1, 1_000_000);
  const limit = intParam(url, "limit", 1, 100, 20) as number;
  const cursor = url.searchParams.get("cursor") ?? undefined;
  if (cursor !== undefined && !CURSOR_PATTERN.test(cursor)) throw invalid("query.cursor", INVALID_CURSOR);
  const total = boolParam(url, "total");
  if (cursor === undefined) return { page, limit, cursor, total, after: undefined };
  if (page !== undefined) throw invalid("query.page", "cannot be combined with cursor");
  const after = decodeCursor(cursor, sort);
  if (!after) throw invalid("query.cursor", INVALID_CURSOR);
  return { page, limit, cursor, total, after };
}

/** The window of a list read in `sort`: by page (an offset; page 1 when neither is given) or after a cursor's row. */
export function listWindow(url: URL, sort: CursorSort): ListWindow {
  const { page, limit, total, after } = paging(url, sort);
  if (after) return { sort, limit, page: null, offset: 0, after, total };
  const pageNumber = page ?? 1;
  return { sort, limit, page: pageNumber, offset: (pageNumber - 1) * limit, after, total };
}

export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function str(body: Row, key: string, max: number, required: boolean) {
  const v = body[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string" || v.length < 1 || v.length > max) throw invalid(`body.${key}`, "must be a string");
  return v;
}

export function int(body: Row, key: string, min: number, max: number, required: boolean) {
  const v = body[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(`body.${key}`, `must be an integer from ${min} to ${max}`);
  }
  return v;
}

export function onlyKeys(body: Row, keys: string[]) {
  for (const key of Object.keys(body)) if (!keys.includes(key)) throw invalid(`body.${key}`, "is not a known field");
}

export function userFields(body: Row, required: boolean) {
  onlyKeys(body, ["email", "name"]);
  const email = str(body, "email", 254, required);
  if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    throw invalid("body.email", "must be an e-mail address");
  const name = str(body, "name", 200, required)?.trim();
  if (name !== undefined && (name.length < 1 || name.length > 100))
    throw invalid("body.name", "must be 1–100 characters");
  if (!required && email === undefined && name === undefined) throw invalid("body", "must contain at least one field");
  return { email: email?.toLowerCase(), name };
}

/** POST /auth/register's body: a user's fields and a password of 8–128 characters. */
export function registerFields(body: Row) {
  onlyKeys(body, ["email", "name", "password"]);
  const password = str(body, "password", 128, true) as string;
  if (password.length < 8) throw invalid("body.password", "must be 8–128 characters");
  const { email, name } = userFields({ email: body.email, name: body.name }, true);
  return { email: email as string, name: name as string, password };
}

export function productFields(body: Row, required: boolean) {
  onlyKeys(body, ["name", "description", "priceCents", "stock"]);
  const fields = {
    name: str(body, "name", 200, required),
    description: body.description === null ? null : str(body, "description", 2000, false),
    priceCents: int(body, "priceCents", 0, 100_000_000, required),
    stock: int(body, "stock", 0, 1_000_000, required),
  };
  if (!required && Object.keys(body).length === 0) throw invalid("body", "must contain at least one field");
  return fields;
}

export function includes(url: URL) {
  const raw = url.searchParams.get("include");
  if (raw === null) return { user: false, product: false };
  const parts = raw.split(",");
  if (!/^(user|product)(,(user|product))?$/.test(raw) || new Set(parts).size !== parts.length) {
    throw invalid("query.include", "must be a comma list of: user, product");
  }
  return { user: parts.includes("user"), product: parts.includes("product") };
}
