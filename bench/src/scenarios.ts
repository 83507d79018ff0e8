// The scenarios: what each one sends, what a correct answer to each request is, and which baseline it is
// compared to. The same definitions feed verification (in the harness) and load (in the load-generator
// process), so that what is verified is exactly what is measured.
import { randomUUID } from "node:crypto";
import {
  EchoResponse,
  Health,
  LoginResponse,
  Order,
  OrderList,
  PRODUCT_SORTS,
  Product,
  ProductList,
  type ProductSort,
  User,
  UserList,
} from "@api-ref/contract";
import type { z } from "zod";

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

export interface Expectation {
  status: number;
  /** `json`: parsed and checked against `schema`; `text`: checked by `check`; `empty`: no body (204). */
  body: "json" | "text" | "empty";
  schema?: z.ZodType;
  /** A check beyond the schema, so that a canned answer fails: returns what is wrong, or undefined. */
  check?: (body: unknown, headers: Headers) => string | undefined;
}

export interface BenchRequest {
  method: Method;
  path: string;
  headers?: Record<string, string>;
  /** JSON text. */
  body?: string;
  expect: Expectation;
}

/** What a sequence's steps remember per connection (ids of rows created earlier in the same sequence). */
export type SequenceContext = Record<string, string | undefined>;

export interface Step {
  label: string;
  build(ctx: SequenceContext, rng: Rng): BenchRequest;
  /** Reads what later steps need from the response (e.g. the id of a created row). */
  onResponse?(status: number, body: string, ctx: SequenceContext): void;
}

/**
 * `pool`: independent requests, each connection sends them in its own random order (prebuilt once: no cost per
 * request in the load generator). `sequence`: steps that depend on earlier responses, cycled per connection.
 */
export type Plan = { kind: "pool"; requests: BenchRequest[] } | { kind: "sequence"; steps: Step[] };

/** Rows of the seeded copy that scenarios draw from, sampled afresh every run so nothing can be hard-coded. */
export interface Pools {
  userIds: string[];
  productIds: string[];
  orderIds: string[];
  /** Seeded users that can log in with `password`. */
  logins: Array<{ id: string; email: string }>;
  password: string;
  /** Products that write scenarios order from; the harness restocks them before each measured cell. */
  orderProductIds: string[];
}

export const SCENARIO_NAMES = [
  "hello",
  "health",
  "echo",
  "user-by-id",
  "product-by-id",
  "products-list",
  "orders-list",
  "order-create",
  "auth-login",
  "metrics",
  "crud-mix",
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export type ScenarioKind = "framework" | "database";

export interface Scenario {
  name: ScenarioName;
  title: string;
  /** framework: compared to raw node:http; database: compared to raw node:http + pg. */
  kind: ScenarioKind;
  /** Writes rows: the harness restocks `orderProductIds` before each cell, and runs it after the read scenarios. */
  writes?: boolean;
  /** Each request depends on an earlier response, so it cannot be pipelined. */
  sequential?: boolean;
  /**
   * Fewest measured seconds, whatever --duration, --smoke or the budget say: at ≈ 15 scrypt logins per second a
   * shorter run counts too few answers to compare.
   */
  minDurationS?: number;
  /**
   * Most connections the scenario runs at, whatever --connections says. A scrypt login is ~50 ms of one core:
   * 100 logins in flight only make a 5 s queue (the latency is then the queue's, not the framework's), and what
   * the queue holds when a run stops is seconds of work the harness must wait out before the next cell.
   */
  maxConnections?: number;
  plan(pools: Pools, rng: Rng): Plan;
}

/** The connection counts a scenario really runs at: the requested ones, capped by its maxConnections. */
export function connectionsFor(scenario: Pick<Scenario, "maxConnections">, requested: readonly number[]): number[] {
  const cap = scenario.maxConnections ?? Number.POSITIVE_INFINITY;
  return [...new Set(requested.map((c) => Math.min(c, cap)))];
}

// ---- randomness -------------------------------------------------------------------------------------------

export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: the run's seed (recorded in results.json) yields the same requests in harness and load generator. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error("cannot pick from an empty pool");
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
  };
}

// ---- helpers ------------------------------------------------------------------------------------------------

const JSON_HEADERS = { "content-type": "application/json" };
const POOL_SIZE = 256;

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

function sameId(field: string, expected: string) {
  return (body: unknown) => {
    const actual = (body as Record<string, unknown>)[field];
    return actual === expected ? undefined : `${field} is ${JSON.stringify(actual)}, expected ${expected}`;
  };
}

function firstProblem(...checks: Array<string | undefined>) {
  return checks.find((c) => c !== undefined);
}

function isSorted<T>(items: T[], compare: (a: T, b: T) => number) {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1] as T, items[i] as T) > 0) return false;
  return true;
}

const byIdThen =
  <T extends { id: string }>(key: (item: T) => number | string, descending: boolean) =>
  (a: T, b: T) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return (ka < kb ? -1 : 1) * (descending ? -1 : 1);
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };

function pageCheck(body: unknown, page: number, limit: number) {
  const b = body as { data: unknown[]; page: number; limit: number };
  if (b.page !== page) return `page is ${b.page}, expected ${page}`;
  if (b.limit !== limit) return `limit is ${b.limit}, expected ${limit}`;
  if (b.data.length > limit) return `${b.data.length} items on a page of ${limit}`;
  return undefined;
}

// ---- request builders -----------------------------------------------------------------------------------------

const getUser = (id: string): BenchRequest => ({
  method: "GET",
  path: `/users/${id}`,
  expect: { status: 200, body: "json", schema: User, check: sameId("id", id) },
});

const getProduct = (id: string): BenchRequest => ({
  method: "GET",
  path: `/products/${id}`,
  expect: { status: 200, body: "json", schema: Product, check: sameId("id", id) },
});

const getOrder = (id: string, include: string): BenchRequest => ({
  method: "GET",
  path: `/orders/${id}?include=${include}`,
  expect: {
    status: 200,
    body: "json",
    schema: Order,
    check: (body) => {
      const o = body as Order;
      return firstProblem(
        sameId("id", id)(body),
        include.includes("user") && o.user?.id !== o.userId ? "user missing or not the order's user" : undefined,
        include.includes("product") && o.product?.id !== o.productId
          ? "product missing or not the order's product"
          : undefined,
      );
    },
  },
});

const NAME_COLLATOR = new Intl.Collator("en");
const PRODUCT_WORDS = ["oak", "lamp", "steel", "chair", "smart", "mug", "glass", "desk"];

function productsQuery(rng: Rng): BenchRequest {
  const sort = rng.pick(PRODUCT_SORTS);
  const page = rng.int(1, 10);
  const limit = rng.pick([10, 20, 50]);
  const params = new URLSearchParams({ page: String(page), limit: String(limit), sort });
  let min: number | undefined;
  let max: number | undefined;
  if (rng.next() < 0.6) {
    min = rng.int(0, 50_000);
    max = min + rng.int(5_000, 60_000);
    params.set("minPriceCents", String(min));
    params.set("maxPriceCents", String(max));
  }
  const inStock = rng.next() < 0.5 ? true : undefined;
  if (inStock) params.set("inStock", "true");
  const q = rng.next() < 0.25 ? rng.pick(PRODUCT_WORDS) : undefined;
  if (q) params.set("q", q);
  const sortKeys: Record<ProductSort, [(p: Product) => number | string, boolean]> = {
    createdAt: [(p) => p.createdAt, false],
    "-createdAt": [(p) => p.createdAt, true],
    priceCents: [(p) => p.priceCents, false],
    "-priceCents": [(p) => p.priceCents, true],
    name: [(p) => p.name, false],
  };
  const [key, descending] = sortKeys[sort];
  return {
    method: "GET",
    path: `/products?${params}`,
    expect: {
      status: 200,
      body: "json",
      schema: ProductList,
      check: (body) => {
        const data = (body as { data: Product[] }).data;
        return firstProblem(
          pageCheck(body, page, limit),
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
      },
    },
  };
}

function ordersQuery(rng: Rng, pools: Pools, options: { userFilter?: boolean } = {}): BenchRequest {
  const page = options.userFilter ? 1 : rng.int(1, 50);
  const limit = 20;
  const params = new URLSearchParams({ page: String(page), limit: String(limit), include: "user,product" });
  const status = !options.userFilter && rng.next() < 0.3 ? rng.pick(["pending", "shipped", "delivered"]) : undefined;
  if (status) params.set("status", status);
  const userId = options.userFilter ? rng.pick(pools.userIds) : undefined;
  if (userId) params.set("userId", userId);
  return {
    method: "GET",
    path: `/orders?${params}`,
    expect: {
      status: 200,
      body: "json",
      schema: OrderList,
      check: (body) => {
        const data = (body as { data: Order[] }).data;
        return firstProblem(
          pageCheck(body, page, limit),
          data.every((o) => o.user?.id === o.userId && o.product?.id === o.productId)
            ? undefined
            : "an order without its user and product",
          status && data.some((o) => o.status !== status) ? `an order not ${status}` : undefined,
          userId && data.some((o) => o.userId !== userId) ? "an order of another user" : undefined,
          isSorted(
            data,
            byIdThen((o) => o.createdAt, true),
          )
            ? undefined
            : "not sorted by createdAt desc then id",
        );
      },
    },
  };
}

function createOrder(userId: string, productId: string, quantity: number): BenchRequest {
  return {
    method: "POST",
    path: "/orders",
    headers: JSON_HEADERS,
    body: JSON.stringify({ userId, productId, quantity }),
    expect: {
      status: 201,
      body: "json",
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
  };
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

function deepEqual(a: unknown, b: unknown): boolean {
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

// ---- crud-mix -----------------------------------------------------------------------------------------------

/** Reads what a create step needs later: the id of the new row, under `key`. */
const remember =
  (key: string) =>
  (status: number, body: string, ctx: SequenceContext): void => {
    if (status !== 201) return;
    try {
      ctx[key] = (JSON.parse(body) as { id?: string }).id;
    } catch {
      ctx[key] = undefined;
    }
  };

const ctxId = (ctx: SequenceContext, key: string) => ctx[key] ?? "00000000-0000-4000-8000-00000000dead";

/**
 * A weighted mix of every CRUD route, as each connection's repeating sequence: 15 of 24 steps read (9 by id,
 * 3 lists), 3 create, 3 update, 3 delete; rows created in the sequence are updated and deleted by it, so that
 * every answer is a 2xx and the data set does not drift.
 */
function crudMixSteps(pools: Pools): Step[] {
  const s = (label: string, build: Step["build"], onResponse?: Step["onResponse"]): Step => ({
    label,
    build,
    ...(onResponse ? { onResponse } : {}),
  });
  return [
    s("GET /users/:id", (_c, r) => getUser(r.pick(pools.userIds))),
    s("GET /products/:id", (_c, r) => getProduct(r.pick(pools.productIds))),
    s("GET /products", (_c, r) => productsQuery(r)),
    s(
      "POST /users",
      () => {
        const email = `mix-${randomUUID()}@bench.example.com`;
        const name = "Bench Mix User";
        return {
          method: "POST",
          path: "/users",
          headers: JSON_HEADERS,
          body: JSON.stringify({ email, name }),
          expect: {
            status: 201,
            body: "json",
            schema: User,
            check: (b) => ((b as User).email === email ? undefined : "email differs from the request"),
          },
        };
      },
      remember("user"),
    ),
    s("GET /orders/:id", (_c, r) => getOrder(r.pick(pools.orderIds), "user,product")),
    s(
      "POST /products",
      (_c, r) => {
        const priceCents = r.int(100, 99_999);
        return {
          method: "POST",
          path: "/products",
          headers: JSON_HEADERS,
          body: JSON.stringify({ name: "Bench Mix Product", description: null, priceCents, stock: 1_000_000 }),
          expect: {
            status: 201,
            body: "json",
            schema: Product,
            check: (b) => ((b as Product).priceCents === priceCents ? undefined : "priceCents differs"),
          },
        };
      },
      remember("product"),
    ),
    s("GET /users/:id (created)", (c) => getUser(ctxId(c, "user"))),
    s("PATCH /users/:id", (c) => {
      const id = ctxId(c, "user");
      return {
        method: "PATCH",
        path: `/users/${id}`,
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: "Bench Mix User Renamed" }),
        expect: {
          status: 200,
          body: "json",
          schema: User,
          check: (b) => ((b as User).name === "Bench Mix User Renamed" ? undefined : "name was not updated"),
        },
      };
    }),
    s("GET /products/:id", (_c, r) => getProduct(r.pick(pools.productIds))),
    s("PATCH /products/:id", (c, r) => {
      const priceCents = r.int(100, 99_999);
      return {
        method: "PATCH",
        path: `/products/${ctxId(c, "product")}`,
        headers: JSON_HEADERS,
        body: JSON.stringify({ priceCents }),
        expect: {
          status: 200,
          body: "json",
          schema: Product,
          check: (b) => ((b as Product).priceCents === priceCents ? undefined : "priceCents was not updated"),
        },
      };
    }),
    s("GET /users/:id", (_c, r) => getUser(r.pick(pools.userIds))),
    s(
      "POST /orders",
      (c, r) => createOrder(r.pick(pools.userIds), ctxId(c, "product"), r.int(1, 5)),
      remember("order"),
    ),
    s("GET /orders/:id (created)", (c) => getOrder(ctxId(c, "order"), "product")),
    s("GET /users", (_c, r) => {
      const page = r.int(1, 20);
      return {
        method: "GET",
        path: `/users?page=${page}&limit=20`,
        expect: {
          status: 200,
          body: "json",
          schema: UserList,
          check: (b) =>
            firstProblem(
              pageCheck(b, page, 20),
              isSorted(
                (b as { data: User[] }).data,
                byIdThen((u) => u.createdAt, true),
              )
                ? undefined
                : "not sorted by createdAt desc then id",
            ),
        },
      };
    }),
    s("PATCH /orders/:id", (c) => ({
      method: "PATCH",
      path: `/orders/${ctxId(c, "order")}`,
      headers: JSON_HEADERS,
      body: JSON.stringify({ status: "cancelled" }),
      expect: {
        status: 200,
        body: "json",
        schema: Order,
        check: (b) => ((b as Order).status === "cancelled" ? undefined : "status was not updated"),
      },
    })),
    s("GET /products/:id", (_c, r) => getProduct(r.pick(pools.productIds))),
    s("GET /orders", (_c, r) => ordersQuery(r, pools, { userFilter: true })),
    s("GET /users/:id", (_c, r) => getUser(r.pick(pools.userIds))),
    s("DELETE /orders/:id", (c) => ({
      method: "DELETE",
      path: `/orders/${ctxId(c, "order")}`,
      expect: { status: 204, body: "empty" },
    })),
    s("GET /products/:id (created)", (c) => getProduct(ctxId(c, "product"))),
    s("DELETE /products/:id", (c) => ({
      method: "DELETE",
      path: `/products/${ctxId(c, "product")}`,
      expect: { status: 204, body: "empty" },
    })),
    s("GET /orders/:id", (_c, r) => getOrder(r.pick(pools.orderIds), "user")),
    s("DELETE /users/:id", (c) => ({
      method: "DELETE",
      path: `/users/${ctxId(c, "user")}`,
      expect: { status: 204, body: "empty" },
    })),
    s("GET /products/:id", (_c, r) => getProduct(r.pick(pools.productIds))),
  ];
}

// ---- the scenarios ------------------------------------------------------------------------------------------

const pool = (make: () => BenchRequest): Plan => ({ kind: "pool", requests: times(POOL_SIZE, make) });

export const scenarios: Record<ScenarioName, Scenario> = {
  hello: {
    name: "hello",
    title: "GET / (hello world)",
    kind: "framework",
    plan: () => ({
      kind: "pool",
      requests: [
        {
          method: "GET",
          path: "/",
          expect: {
            status: 200,
            body: "text",
            check: (body, headers) =>
              firstProblem(
                body === "Hello World!" ? undefined : `body is ${JSON.stringify(body)}`,
                headers.get("content-type")?.startsWith("text/plain") ? undefined : "content-type is not text/plain",
              ),
          },
        },
      ],
    }),
  },
  health: {
    name: "health",
    title: "GET /health",
    kind: "framework",
    plan: () => ({
      kind: "pool",
      requests: [{ method: "GET", path: "/health", expect: { status: 200, body: "json", schema: Health } }],
    }),
  },
  echo: {
    name: "echo",
    title: "POST /echo (4 kB nested JSON)",
    kind: "framework",
    plan: (_pools, rng) => ({
      kind: "pool",
      requests: times(16, () => {
        const doc = echoDocument(rng);
        return {
          method: "POST",
          path: "/echo",
          headers: JSON_HEADERS,
          body: JSON.stringify(doc),
          expect: {
            status: 200,
            body: "json",
            schema: EchoResponse,
            check: (body) => {
              const { txnId: _txnId, ...rest } = body as Record<string, unknown>;
              return deepEqual(rest, doc) ? undefined : "the echoed body differs from the request";
            },
          },
        };
      }),
    }),
  },
  "user-by-id": {
    name: "user-by-id",
    title: "GET /users/:id",
    kind: "database",
    plan: (pools, rng) => pool(() => getUser(rng.pick(pools.userIds))),
  },
  "product-by-id": {
    name: "product-by-id",
    title: "GET /products/:id",
    kind: "database",
    plan: (pools, rng) => pool(() => getProduct(rng.pick(pools.productIds))),
  },
  "products-list": {
    name: "products-list",
    title: "GET /products (filters, sort)",
    kind: "database",
    plan: (_pools, rng) => pool(() => productsQuery(rng)),
  },
  "orders-list": {
    name: "orders-list",
    title: "GET /orders?include=user,product",
    kind: "database",
    plan: (pools, rng) => pool(() => ordersQuery(rng, pools)),
  },
  "order-create": {
    name: "order-create",
    title: "POST /orders",
    kind: "database",
    writes: true,
    plan: (pools, rng) =>
      pool(() => createOrder(rng.pick(pools.userIds), rng.pick(pools.orderProductIds), rng.int(1, 5))),
  },
  "auth-login": {
    name: "auth-login",
    title: "POST /auth/login (scrypt)",
    kind: "database",
    minDurationS: 3,
    maxConnections: 16,
    plan: (pools, rng) =>
      pool(() => {
        const login = rng.pick(pools.logins);
        return {
          method: "POST",
          path: "/auth/login",
          headers: JSON_HEADERS,
          body: JSON.stringify({ email: login.email, password: pools.password }),
          expect: {
            status: 200,
            body: "json",
            schema: LoginResponse,
            check: (body) => {
              const payload = (body as { token: string }).token.split(".")[1] ?? "";
              try {
                const sub = (JSON.parse(Buffer.from(payload, "base64url").toString()) as { sub?: unknown }).sub;
                return sub === login.id ? undefined : "the token's sub is not the user's id";
              } catch {
                return "the token is not a JWT";
              }
            },
          },
        };
      }),
  },
  metrics: {
    name: "metrics",
    title: "GET /metrics",
    kind: "framework",
    plan: () => ({
      kind: "pool",
      requests: [
        {
          method: "GET",
          path: "/metrics",
          expect: {
            status: 200,
            body: "text",
            check: (body, headers) =>
              firstProblem(
                headers.get("content-type")?.startsWith("text/plain") ? undefined : "content-type is not text/plain",
                /^http_requests_total\{/m.test(String(body)) ? undefined : "no http_requests_total samples",
                /^http_request_duration_seconds_bucket\{/m.test(String(body))
                  ? undefined
                  : "no http_request_duration_seconds histogram",
              ),
          },
        },
      ],
    }),
  },
  "crud-mix": {
    name: "crud-mix",
    title: "CRUD mix (24-step cycle: 62% reads)",
    kind: "database",
    writes: true,
    sequential: true,
    plan: (pools) => ({ kind: "sequence", steps: crudMixSteps(pools) }),
  },
};

/** Order of execution: read-only scenarios first, so that writes cannot change what the reads measure. */
export function executionOrder(names: readonly ScenarioName[]): ScenarioName[] {
  return [...names].sort((a, b) => Number(scenarios[a].writes ?? false) - Number(scenarios[b].writes ?? false));
}
