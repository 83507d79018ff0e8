// The routes contract file's case tables (values each check runs once per row of), and the SQL that gives the ids
// of a list in the order the API must list them.
import type { ProductSort } from "../../src/index.ts";

/** The order of every list but products': newest first, ties broken by id. */
export const NEWEST_FIRST = "ORDER BY created_at DESC, id ASC";

export const PRODUCT_ORDER: Record<ProductSort, string> = {
  createdAt: "created_at ASC, id ASC",
  "-createdAt": "created_at DESC, id ASC",
  priceCents: "price_cents ASC, id ASC",
  "-priceCents": "price_cents DESC, id ASC",
  name: "name ASC, id ASC",
};

/** The ids GET /products lists for a filter (an SQL condition, or "") and a sort, in order. */
export const productIdsSql = (where: string, sort: ProductSort = "-createdAt") =>
  `SELECT id FROM products ${where ? `WHERE ${where}` : ""} ORDER BY ${PRODUCT_ORDER[sort]}`;

/** The ids GET /orders lists for a filter (an SQL condition, or ""), in order. */
export const orderIdsSql = (where = "") => `SELECT id FROM orders ${where ? `WHERE ${where}` : ""} ${NEWEST_FIRST}`;

/** x-request-id values an implementation must echo: [what it is, the id]. */
export const VALID_REQUEST_IDS = [
  ["a short id", "abc"],
  ["letters, digits, dots, underscores and dashes", "Req-1.2_x"],
  ["exactly 128 characters", "r".repeat(128)],
] as const;

/** x-request-id values an implementation must replace with a fresh UUID: [what is wrong, the id]. */
export const INVALID_REQUEST_IDS = [
  ["129 characters", "r".repeat(129)],
  ["a space and an exclamation mark", "bad id!"],
  ["a slash", "a/b"],
  ["a colon", "a:b"],
  ["empty", ""],
] as const;

/** Content types that are JSON (any case, any charset spelling, `+json` suffixes). */
export const JSON_MEDIA_TYPES = [
  "application/json; charset=utf-8",
  "application/json;charset=UTF-8",
  "Application/JSON",
  "application/vnd.api+json",
  "application/merge-patch+json",
] as const;

/** Products at the edges of what the contract accepts: [what, the fields]. */
export const PRODUCT_EDGE_BODIES = [
  ["the smallest price and stock", { priceCents: 0, stock: 0, description: "" }],
  ["the largest price and stock", { priceCents: 100_000_000, stock: 1_000_000 }],
  ["the longest name and description", { name: "p".repeat(200), description: "d".repeat(2000) }],
  ["an explicit null description", { description: null }],
] as const;

/** `q` on GET /users: [what it matches, the query]. */
export const USER_SEARCHES = [
  ["part of a name, in any case", "aDa LoVe"],
  ["part of an e-mail, in any case", "E.TURING"],
  ["a bare surname", "turing"],
] as const;

/** Filters of GET /products: [what, the query string, the SQL condition it means]. */
export const PRODUCT_FILTERS = [
  ["minPriceCents alone", "minPriceCents=99000", "price_cents >= 99000"],
  ["maxPriceCents alone", "maxPriceCents=500", "price_cents <= 500"],
  ["inStock=true", "inStock=true", "stock > 0"],
  ["inStock=false", "inStock=false", "stock = 0"],
] as const;

/** `include` on GET /orders: [the value, what is embedded]. */
export const ORDER_LIST_INCLUDES = [
  ["user", { user: true, product: false }],
  ["product", { user: false, product: true }],
  ["user,product", { user: true, product: true }],
  ["product,user", { user: true, product: true }],
] as const;

/** `include` on GET /orders/:id: [the query string, what is embedded] (none, and the first three above). */
export const ORDER_INCLUDES = [
  ["", { user: false, product: false }],
  ...ORDER_LIST_INCLUDES.slice(0, 3).map(([include, embedded]) => [`?include=${include}`, embedded] as const),
] as const;

/** Orders whose DELETE must leave the stock as it is: [status, the path to it, the stock after]. */
export const STOCK_KEEPING_DELETES = [
  ["shipped", ["shipped"], 15],
  ["delivered", ["shipped", "delivered"], 15],
  ["cancelled", ["cancelled"], 20],
] as const;
