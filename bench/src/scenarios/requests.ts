// Request builders, each with what a correct answer to it is (status, schema, and a check beyond the schema so
// that a canned answer fails).
import {
  type CursorSort,
  encodeCursor,
  Order,
  OrderList,
  type Page,
  Product,
  ProductList,
  type ProductSort,
  SORT_KEYS,
  User,
  UserList,
} from "@api-ref/contract";
import {
  drawOrdersQuery,
  drawProductsQuery,
  type OrdersQuery,
  ordersPath,
  PRODUCT_WORDS,
  type ProductsQuery,
  productsPath,
  type Rng,
} from "@api-ref/harness";
import type { z } from "zod";
import type { BenchRequest, Expectation, Method, Pools } from "./types.ts";

const JSON_HEADERS = { "content-type": "application/json" };
export const POOL_SIZE = 256;

export const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

export function sameId(field: string, expected: string) {
  return (body: unknown) => {
    const actual = (body as Record<string, unknown>)[field];
    return actual === expected ? undefined : `${field} is ${JSON.stringify(actual)}, expected ${expected}`;
  };
}

export function firstProblem(...checks: Array<string | undefined>) {
  return checks.find((c) => c !== undefined);
}

export function isSorted<T>(items: T[], compare: (a: T, b: T) => number) {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1] as T, items[i] as T) > 0) return false;
  return true;
}

export const byIdThen =
  <T extends { id: string }>(key: (item: T) => number | string, descending: boolean) =>
  (a: T, b: T) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return (ka < kb ? -1 : 1) * (descending ? -1 : 1);
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };

/** Users and orders are listed newest first, ties broken by id. */
export const NEWEST_FIRST = "-createdAt" satisfies CursorSort;
const compareNewestFirst = byIdThen<{ id: string; createdAt: string }>((item) => item.createdAt, true);

/**
 * What every list answer must say, whatever its page: its limit and no more rows, no count unless `total=true` was
 * asked (no scenario asks), and a nextCursor only when the page is full, naming its last row in the list's sort.
 */
export function listProblem(body: unknown, limit: number, sort: CursorSort): string | undefined {
  const b = body as Page<{ id: string }>;
  if (b.limit !== limit) return `limit is ${b.limit}, expected ${limit}`;
  if (b.data.length > limit) return `${b.data.length} items on a page of ${limit}`;
  if (b.total !== null || b.pages !== null) return "total and pages are not null, though total=true was not asked";
  if (b.nextCursor === null) return undefined;
  const last = b.data.at(-1);
  if (!last || b.data.length < limit) return `a nextCursor after a page of ${b.data.length} of ${limit}: none follows`;
  return b.nextCursor === cursorAfter(sort, last) ? undefined : "nextCursor does not name the page's last row";
}

/** The cursor that continues a list in `sort` after `item`: the contract's bytes (encodeCursor). */
export function cursorAfter(sort: CursorSort, item: { id: string }): string {
  const key = (item as Record<string, unknown>)[SORT_KEYS[sort].field] as string | number;
  return encodeCursor(sort, { key, id: item.id });
}

/** A list read by page number: that page, and what every list answer must say. */
export function pageCheck(body: unknown, page: number, limit: number, sort: CursorSort) {
  const answered = (body as { page: number | null }).page;
  return answered === page ? listProblem(body, limit, sort) : `page is ${answered}, expected ${page}`;
}

// ---- request builders -----------------------------------------------------------------------------------------

type Check = NonNullable<Expectation["check"]>;

/** GET `path`: the answer must be a 200 whose JSON body `schema` accepts and `check` (if any) passes. */
export const getJson = (path: string, schema: z.ZodType, check?: Check): BenchRequest => ({
  method: "GET",
  path,
  expect: { status: 200, body: "json", schema, ...(check ? { check } : {}) },
});

/** `body` sent as JSON: the answer must be `status` with a JSON body that `schema` accepts and `check` passes. */
export const sendJson = (
  method: Method,
  path: string,
  body: unknown,
  expect: { status: number; schema: z.ZodType; check: Check },
): BenchRequest => ({
  method,
  path,
  headers: JSON_HEADERS,
  body: JSON.stringify(body),
  expect: { body: "json", ...expect },
});

/** `request` sent by a signed-in caller: `authorization` is its bearer header. */
export const signedIn = (request: BenchRequest, authorization: string): BenchRequest => ({
  ...request,
  headers: { ...request.headers, authorization },
});

export const getUser = (id: string) => getJson(`/users/${id}`, User, sameId("id", id));

export const getProduct = (id: string) => getJson(`/products/${id}`, Product, sameId("id", id));

export const getOrder = (id: string, include: string) =>
  getJson(`/orders/${id}?include=${include}`, Order, (body) => {
    const o = body as Order;
    return firstProblem(
      sameId("id", id)(body),
      include.includes("user") && o.user?.id !== o.userId ? "user missing or not the order's user" : undefined,
      include.includes("product") && o.product?.id !== o.productId
        ? "product missing or not the order's product"
        : undefined,
    );
  });

const NAME_COLLATOR = new Intl.Collator("en");

/** GET /products with the query's page, size, sort and filters; each answer is checked against all of them. */
export function productsRequest(query: ProductsQuery): BenchRequest {
  const { sort, page, limit, minPriceCents: min, maxPriceCents: max, inStock, q } = query;
  const sortKeys: Record<ProductSort, [(p: Product) => number | string, boolean]> = {
    createdAt: [(p) => p.createdAt, false],
    "-createdAt": [(p) => p.createdAt, true],
    priceCents: [(p) => p.priceCents, false],
    "-priceCents": [(p) => p.priceCents, true],
    name: [(p) => p.name, false],
  };
  const [key, descending] = sortKeys[sort];
  return getJson(productsPath(query), ProductList, (body) => {
    const data = (body as { data: Product[] }).data;
    return firstProblem(
      pageCheck(body, page, limit, sort),
      data.every((p) => (min === undefined || p.priceCents >= min) && (max === undefined || p.priceCents <= max))
        ? undefined
        : "a product outside the price filter",
      inStock && data.some((p) => p.stock === 0) ? "an out-of-stock product with inStock=true" : undefined,
      q && data.some((p) => !p.name.toLowerCase().includes(q)) ? `a product whose name lacks "${q}"` : undefined,
      // Names follow the database's collation: C (code units) on the embedded server, a locale elsewhere.
      isSorted(data, byIdThen(key, descending)) ||
        (sort === "name" && isSorted(data, (a, b) => NAME_COLLATOR.compare(a.name, b.name)))
        ? undefined
        : `not sorted by ${sort} then id`,
    );
  });
}

export const productsQuery = (rng: Rng) => productsRequest(drawProductsQuery(rng));

/** What is wrong with orders listed with include=user,product: one without its own user and product. */
export const relationsProblem = (data: Order[]) =>
  data.every((o) => o.user?.id === o.userId && o.product?.id === o.productId)
    ? undefined
    : "an order without its user and product";

/** GET /orders with users and products included, checked against the query's page, status and user. */
export function ordersRequest(query: OrdersQuery): BenchRequest {
  const { page, limit, status, userId } = query;
  return getJson(ordersPath(query), OrderList, (body) => {
    const data = (body as { data: Order[] }).data;
    return firstProblem(
      pageCheck(body, page, limit, NEWEST_FIRST),
      relationsProblem(data),
      status && data.some((o) => o.status !== status) ? `an order not ${status}` : undefined,
      userId && data.some((o) => o.userId !== userId) ? "an order of another user" : undefined,
      isSorted(data, compareNewestFirst) ? undefined : "not sorted by createdAt desc then id",
    );
  });
}

export const ordersQuery = (rng: Rng, pools: Pools, options: { userFilter?: boolean } = {}) =>
  ordersRequest(drawOrdersQuery(rng, pools.userIds, options));

/** GET /users?page=…&limit=…, checked for its page and its order. */
export function usersRequest(page: number, limit: number): BenchRequest {
  return getJson(`/users?page=${page}&limit=${limit}`, UserList, (body) =>
    firstProblem(
      pageCheck(body, page, limit, NEWEST_FIRST),
      isSorted((body as { data: User[] }).data, compareNewestFirst)
        ? undefined
        : "not sorted by createdAt desc then id",
    ),
  );
}

/** POST /orders by the customer `userId` (whose token it must carry): the order must be theirs. */
export function createOrder(userId: string, productId: string, quantity: number): BenchRequest {
  return sendJson(
    "POST",
    "/orders",
    { productId, quantity },
    {
      status: 201,
      schema: Order,
      check: (body, headers) => {
        const o = body as Order;
        return firstProblem(
          o.userId === userId && o.productId === productId && o.quantity === quantity
            ? undefined
            : "the order does not match the request",
          o.totalCents === o.unitPriceCents * quantity ? undefined : "totalCents is not unitPriceCents × quantity",
          o.status === "pending" ? undefined : `status is ${o.status}, expected pending`,
          headers.get("location") === `/orders/${o.id}` ? undefined : "location header is not /orders/{id}",
        );
      },
    },
  );
}

/** A few-kB nested JSON document whose values come from the run's random seed. */
export function echoDocument(rng: Rng): Record<string, unknown> {
  const word = () => PRODUCT_WORDS[rng.int(0, PRODUCT_WORDS.length - 1)] as string;
  return {
    requestId: `r-${rng.int(1, 1e9)}`,
    customer: {
      id: rng.int(1, 1e6),
      name: `${word()} ${word()}`,
      address: { street: `${rng.int(1, 999)} ${word()} street`, city: word(), zip: String(rng.int(10000, 99999)) },
      tags: times(5, () => word()),
      vip: rng.next() < 0.5,
    },
    items: times(12, (i) => ({
      sku: `SKU-${rng.int(1000, 9999)}-${i}`,
      name: `${word()} ${word()} ${word()}`,
      quantity: rng.int(1, 10),
      priceCents: rng.int(100, 100000),
      attributes: { color: word(), size: rng.pick(["S", "M", "L", "XL"]), weightGrams: rng.int(10, 5000) },
      discounts: times(2, () => ({ code: word().toUpperCase(), percent: rng.int(1, 50) })),
    })),
    notes: times(4, () => `${word()} ${word()} ${word()} ${word()} ${word()}`),
    meta: { source: "bench", version: rng.int(1, 9), nested: { depth: { of: { four: rng.next() } } } },
  };
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}
