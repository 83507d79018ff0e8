// The crud-mix load: a 24-step cycle over every CRUD route (15 reads: 9 by id, 3 lists; 3 creates, 3 updates,
// 3 deletes), each connection repeating it. Rows a cycle creates, it updates and deletes again, so every answer is
// an exact 2xx and the data set does not drift however long it runs. The bench measures it (and checks every
// answer against the contract); the fault suite's soak runs it for minutes and watches memory. What to send is
// written here once; what a correct answer is, each of them decides.
//
// Each request is sent by whom a real client would send it (docs/api.md, "Authorization"): the seed's admin does
// the back office (users, products, any order, deleting orders), each cycle's customer — a seeded customer — reads
// themself and places, reads, cancels and lists their own order, and product reads go without a token.
import { randomUUID } from "node:crypto";
import { fixtureUsers } from "@api-ref/db/fixtures";
import type { Rng } from "./random.ts";
import { bearerFor } from "./token.ts";

export interface CrudMixPools {
  /** Seeded customers: whom the back office reads, and whom each cycle acts for. */
  userIds: readonly string[];
  productIds: readonly string[];
  orderIds: readonly string[];
}

/** Ids of the rows one connection created in its current cycle, and of the customer the cycle acts for. */
export type CrudMixContext = {
  user?: string | undefined;
  product?: string | undefined;
  order?: string | undefined;
  customer?: string | undefined;
};

export interface CrudMixRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Path and query. */
  path: string;
  /** A JSON body. */
  body?: Record<string, unknown>;
  /** The status of a correct answer. */
  status: 200 | 201 | 204;
  /** The user whose bearer token it carries (the admin or the cycle's customer); none on a public route. */
  caller?: string;
}

export interface CrudMixStep {
  label: string;
  /** Where the id of the row a create step made goes (for the steps after it). */
  remember?: keyof CrudMixContext;
  request(ctx: CrudMixContext, pools: CrudMixPools, rng: Rng): CrudMixRequest;
}

/** The id a step uses when the row it needs was not created (the create failed): answered 404, counted wrong. */
const MISSING = "00000000-0000-4000-8000-00000000dead";

/** Who does the back office's part of the cycle: the seed's admin. */
export const CRUD_MIX_ADMIN = fixtureUsers.admin.id;

/**
 * The `authorization` header of a caller, its token forged once per user with the run's JWT secret, as the
 * implementations sign theirs (valid for an hour: a load longer than that needs a new cache).
 */
export function bearerCache(jwtSecret: string): (userId: string) => string {
  const headers = new Map<string, string>();
  return (userId) => {
    let header = headers.get(userId);
    if (header === undefined) {
      header = bearerFor(jwtSecret, userId);
      headers.set(userId, header);
    }
    return header;
  };
}

// ---- list queries ------------------------------------------------------------------------------------------------

/** The contract's product sorts (PRODUCT_SORTS). */
export const PRODUCT_SORTS = ["createdAt", "-createdAt", "priceCents", "-priceCents", "name"] as const;
/** Words that occur in seeded product names, for `q`. */
export const PRODUCT_WORDS = ["oak", "lamp", "steel", "chair", "smart", "mug", "glass", "desk"];

export interface ProductsQuery {
  page: number;
  limit: number;
  sort: (typeof PRODUCT_SORTS)[number];
  minPriceCents?: number;
  maxPriceCents?: number;
  inStock?: true;
  q?: string;
}

/** A GET /products query with a random page, size, sort and filters. */
export function drawProductsQuery(rng: Rng): ProductsQuery {
  const query: ProductsQuery = { sort: rng.pick(PRODUCT_SORTS), page: rng.int(1, 10), limit: rng.pick([10, 20, 50]) };
  if (rng.next() < 0.6) {
    query.minPriceCents = rng.int(0, 50_000);
    query.maxPriceCents = query.minPriceCents + rng.int(5_000, 60_000);
  }
  if (rng.next() < 0.5) query.inStock = true;
  if (rng.next() < 0.25) query.q = rng.pick(PRODUCT_WORDS);
  return query;
}

export function productsPath(query: ProductsQuery): string {
  const params = new URLSearchParams({ page: String(query.page), limit: String(query.limit), sort: query.sort });
  if (query.minPriceCents !== undefined) params.set("minPriceCents", String(query.minPriceCents));
  if (query.maxPriceCents !== undefined) params.set("maxPriceCents", String(query.maxPriceCents));
  if (query.inStock) params.set("inStock", "true");
  if (query.q) params.set("q", query.q);
  return `/products?${params}`;
}

export interface OrdersQuery {
  page: number;
  limit: number;
  include: "user,product";
  status?: "pending" | "shipped" | "delivered";
  userId?: string;
}

/** A GET /orders query with users and products included: a random page and status, or one user's first page. */
export function drawOrdersQuery(rng: Rng, userIds: readonly string[], options: { userFilter?: boolean } = {}) {
  const query: OrdersQuery = { page: options.userFilter ? 1 : rng.int(1, 50), limit: 20, include: "user,product" };
  if (!options.userFilter && rng.next() < 0.3) query.status = rng.pick(["pending", "shipped", "delivered"] as const);
  if (options.userFilter) query.userId = rng.pick(userIds);
  return query;
}

export function ordersPath(query: OrdersQuery): string {
  const params = new URLSearchParams({ page: String(query.page), limit: String(query.limit), include: query.include });
  if (query.status) params.set("status", query.status);
  if (query.userId) params.set("userId", query.userId);
  return `/orders?${params}`;
}

// ---- the cycle ---------------------------------------------------------------------------------------------------

const get = (path: string, caller?: string): CrudMixRequest => ({
  method: "GET",
  path,
  status: 200,
  ...(caller ? { caller } : {}),
});
const post = (path: string, body: Record<string, unknown>, caller: string): CrudMixRequest => ({
  method: "POST",
  path,
  body,
  status: 201,
  caller,
});
const patch = (path: string, body: Record<string, unknown>, caller: string): CrudMixRequest => ({
  method: "PATCH",
  path,
  body,
  status: 200,
  caller,
});
const del = (path: string, caller: string): CrudMixRequest => ({ method: "DELETE", path, status: 204, caller });

const ADMIN = CRUD_MIX_ADMIN;
/** The cycle's customer, chosen by its first step. */
const customer = (c: CrudMixContext) => c.customer ?? MISSING;

export const CRUD_MIX: readonly CrudMixStep[] = [
  {
    label: "GET /users/:id (customer: themself)",
    // The cycle's customer, kept in the context for the steps that act for them.
    request: (c, p, r) => {
      c.customer = r.pick(p.userIds);
      return get(`/users/${c.customer}`, c.customer);
    },
  },
  { label: "GET /products/:id", request: (_c, p, r) => get(`/products/${r.pick(p.productIds)}`) },
  { label: "GET /products", request: (_c, _p, r) => get(productsPath(drawProductsQuery(r))) },
  {
    label: "POST /users (admin)",
    remember: "user",
    request: () => post("/users", { email: `mix-${randomUUID()}@crud-mix.example.com`, name: "Mix User" }, ADMIN),
  },
  {
    label: "GET /orders/:id (admin)",
    request: (_c, p, r) => get(`/orders/${r.pick(p.orderIds)}?include=user,product`, ADMIN),
  },
  {
    label: "POST /products (admin)",
    remember: "product",
    request: (_c, _p, r) =>
      post(
        "/products",
        { name: "Mix Product", description: null, priceCents: r.int(100, 99_999), stock: 1_000_000 },
        ADMIN,
      ),
  },
  { label: "GET /users/:id (admin: created)", request: (c) => get(`/users/${c.user ?? MISSING}`, ADMIN) },
  {
    label: "PATCH /users/:id (admin)",
    request: (c) => patch(`/users/${c.user ?? MISSING}`, { name: "Mix User Renamed" }, ADMIN),
  },
  { label: "GET /products/:id", request: (_c, p, r) => get(`/products/${r.pick(p.productIds)}`) },
  {
    label: "PATCH /products/:id (admin)",
    request: (c, _p, r) => patch(`/products/${c.product ?? MISSING}`, { priceCents: r.int(100, 99_999) }, ADMIN),
  },
  { label: "GET /users/:id (admin)", request: (_c, p, r) => get(`/users/${r.pick(p.userIds)}`, ADMIN) },
  {
    label: "POST /orders (customer)",
    remember: "order",
    request: (c, _p, r) => post("/orders", { productId: c.product ?? MISSING, quantity: r.int(1, 5) }, customer(c)),
  },
  {
    label: "GET /orders/:id (customer: created)",
    request: (c) => get(`/orders/${c.order ?? MISSING}?include=product`, customer(c)),
  },
  { label: "GET /users (admin)", request: (_c, _p, r) => get(`/users?page=${r.int(1, 20)}&limit=20`, ADMIN) },
  {
    label: "PATCH /orders/:id (customer: cancels)",
    request: (c) => patch(`/orders/${c.order ?? MISSING}`, { status: "cancelled" }, customer(c)),
  },
  { label: "GET /products/:id", request: (_c, p, r) => get(`/products/${r.pick(p.productIds)}`) },
  {
    label: "GET /orders (customer: their own)",
    request: (c, _p, r) => get(ordersPath(drawOrdersQuery(r, [customer(c)], { userFilter: true })), customer(c)),
  },
  { label: "GET /users/:id (admin)", request: (_c, p, r) => get(`/users/${r.pick(p.userIds)}`, ADMIN) },
  { label: "DELETE /orders/:id (admin)", request: (c) => del(`/orders/${c.order ?? MISSING}`, ADMIN) },
  { label: "GET /products/:id (created)", request: (c) => get(`/products/${c.product ?? MISSING}`) },
  { label: "DELETE /products/:id (admin)", request: (c) => del(`/products/${c.product ?? MISSING}`, ADMIN) },
  {
    label: "GET /orders/:id (admin)",
    request: (_c, p, r) => get(`/orders/${r.pick(p.orderIds)}?include=user`, ADMIN),
  },
  { label: "DELETE /users/:id (admin)", request: (c) => del(`/users/${c.user ?? MISSING}`, ADMIN) },
  { label: "GET /products/:id", request: (_c, p, r) => get(`/products/${r.pick(p.productIds)}`) },
];
