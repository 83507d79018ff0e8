// The generated client against a running implementation, started as the contract suite starts one (its own
// process, its own copy of the seeded database): lists with paging and filters, an order placed twice with one
// idempotency key, login and /auth/me, and the refusals of the authorization model. The client signs in as a real
// one does, with the seeded users' password: a customer (the buyer) for their own orders, the admin for the back
// office. EXAMPLE_CLIENT_IMPL picks the implementation (default express).
import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { Order, OrderList, ProductList, User } from "@api-ref/contract";
import { fixtureProducts, fixtureUsers, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { type PostgresServer, prepareTemplate, provisionPostgres } from "@api-ref/db/provision";
import { build, launch, type RunningImplementation, selectImplementations } from "@api-ref/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, createApiClient } from "../src/client.ts";

const DOCUMENT = new URL("../../../docs/openapi.json", import.meta.url);
const implName = process.env.EXAMPLE_CLIENT_IMPL ?? "express";

let server: PostgresServer | undefined;
let running: RunningImplementation | undefined;
let api: ApiClient;
/** Signed in as the buyer (a customer who owns the fixture orders), and as the seed's admin. */
let asBuyer: ApiClient;
let asAdmin: ApiClient;
let baseUrl: string;

/** A client signed in as `email` through POST /auth/login (every seeded user's password is SEED_PASSWORD). */
async function signedIn(email: string): Promise<ApiClient> {
  const { data, error } = await api.POST("/auth/login", { body: { email, password: SEED_PASSWORD } });
  if (!data) throw new Error(`could not log in as ${email}: ${JSON.stringify(error)}`);
  return createApiClient({ baseUrl, token: data.token });
}

beforeAll(async () => {
  const [impl] = selectImplementations(implName);
  if (!impl) throw new Error(`no implementation named ${implName}`);
  server = await provisionPostgres();
  const [template] = await Promise.all([prepareTemplate(server, { name: "example_client_template" }), build(impl)]);
  const databaseUrl = await server.createDatabase("example_client", { template: template.name });
  running = await launch(impl, { databaseUrl, jwtSecret: randomBytes(32).toString("base64url") });
  baseUrl = running.url;
  api = createApiClient({ baseUrl });
  asBuyer = await signedIn(fixtureUsers.buyer.email);
  asAdmin = await signedIn(fixtureUsers.admin.email);
});

afterAll(async () => {
  await running?.stop();
  await server?.stop();
});

describe(`the example client against ${implName}`, () => {
  it("serves docs/openapi.json, the document its types are generated from on install", async () => {
    const served = await (await fetch(`${baseUrl}/openapi.json`)).json();
    expect(served, "run pnpm docs:generate, then pnpm install").toEqual(JSON.parse(await readFile(DOCUMENT, "utf8")));
  });

  it("lists products a page at a time, filtered and sorted, with numbers and booleans as the API means them", async () => {
    const query = { page: 2, limit: 5, minPriceCents: 1000, inStock: true, sort: "priceCents" } as const;
    const { data, error, response } = await api.GET("/products", { params: { query } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    const page = ProductList.parse(data);
    expect(page).toMatchObject({ page: 2, limit: 5 });
    expect(page.data).toHaveLength(5);
    for (const product of page.data) {
      expect(product.priceCents).toBeGreaterThanOrEqual(1000);
      expect(product.stock).toBeGreaterThan(0);
    }
    const prices = page.data.map((p) => p.priceCents);
    expect(prices).toEqual(prices.toSorted((a, b) => a - b));

    // The next page starts where this one ended: by number (page 3), or by the cursor this page gave.
    const third = ProductList.parse((await api.GET("/products", { params: { query: { ...query, page: 3 } } })).data);
    expect(third.data[0]?.priceCents).toBeGreaterThanOrEqual(prices.at(-1) ?? 0);
    const { page: _, ...byCursor } = query;
    const cursor = page.nextCursor ?? undefined;
    const next = ProductList.parse((await api.GET("/products", { params: { query: { ...byCursor, cursor } } })).data);
    expect(next).toEqual({ ...third, page: null });
  });

  it("counts a list only when asked (total=true)", async () => {
    const uncounted = ProductList.parse((await api.GET("/products", { params: { query: { limit: 1 } } })).data);
    expect(uncounted).toMatchObject({ total: null, pages: null });
    const query = { limit: 1, total: true } as const;
    const counted = ProductList.parse((await api.GET("/products", { params: { query } })).data);
    expect(counted.total).toBeGreaterThan(0);
    expect(counted.pages).toBe(counted.total);
  });

  it("lists a customer's own orders with both relations included (`include` sent as one comma list)", async () => {
    const { data, error } = await asBuyer.GET("/orders", {
      params: { query: { include: ["user", "product"], limit: 100 } },
    });
    expect(error).toBeUndefined();
    const page = OrderList.parse(data);
    expect(page.data.length).toBeGreaterThan(0);
    for (const order of page.data) {
      expect(order.userId).toBe(fixtureUsers.buyer.id);
      expect(order.user?.email).toBe(fixtureUsers.buyer.email);
      expect(order.product?.id).toBe(order.productId);
    }
  });

  it("answers a bad query with the problem the document declares, typed", async () => {
    const { data, error, response } = await api.GET("/products", { params: { query: { limit: 101 } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ type: "/problems/validation-error", status: 400 });
    expect(error?.errors?.map((e) => e.path)).toEqual(["query.limit"]);
  });

  it("places an order once when it is sent twice with one idempotency key", async () => {
    const product = fixtureProducts.unordered;
    const stockBefore = (await api.GET("/products/{id}", { params: { path: { id: product.id } } })).data?.stock;
    const key = randomUUID();
    const body = { productId: product.id, quantity: 3 };
    const send = () => asBuyer.POST("/orders", { body, params: { header: { "idempotency-key": key } } });

    const first = await send();
    expect(first.response.status).toBe(201);
    const order = Order.parse(first.data);
    // The order is the caller's: the body names no user.
    expect(order).toMatchObject({
      ...body,
      userId: fixtureUsers.buyer.id,
      unitPriceCents: product.priceCents,
      status: "pending",
    });
    expect(first.response.headers.get("location")).toBe(`/orders/${order.id}`);

    const retry = await send();
    expect(retry.response.status).toBe(201);
    expect(retry.data).toEqual(first.data);

    const stockAfter = (await api.GET("/products/{id}", { params: { path: { id: product.id } } })).data?.stock;
    expect(stockAfter).toBe((stockBefore ?? Number.NaN) - 3);
  });

  it("logs in and reads /auth/me with the bearer token; without it, a 401 problem", async () => {
    const login = await api.POST("/auth/login", {
      body: { email: fixtureUsers.buyer.email, password: SEED_PASSWORD },
    });
    expect(login.response.status).toBe(200);
    expect(login.data).toMatchObject({ tokenType: "Bearer", expiresIn: 3600 });
    const token = login.data?.token ?? "";

    const me = await createApiClient({ baseUrl, token }).GET("/auth/me");
    expect(me.response.status).toBe(200);
    expect(User.parse(me.data)).toMatchObject({
      id: fixtureUsers.buyer.id,
      email: fixtureUsers.buyer.email,
      role: "customer",
    });

    const anonymous = await api.GET("/auth/me");
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.error).toMatchObject({ type: "/problems/unauthorized", status: 401 });
    expect(anonymous.response.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("refuses a customer the admin's routes (403) and another user's rows (404), each a typed problem", async () => {
    const created = await asBuyer.POST("/products", { body: { name: "Not Mine", priceCents: 100, stock: 1 } });
    expect(created.response.status).toBe(403);
    expect(created.error).toMatchObject({ type: "/problems/forbidden", status: 403 });
    expect(created.response.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope"');

    const other = await asBuyer.GET("/users/{id}", { params: { path: { id: fixtureUsers.noOrders.id } } });
    expect(other.response.status).toBe(404);
    expect(other.error).toMatchObject({ type: "/problems/not-found", status: 404 });

    // The admin reaches every user; a customer, themself.
    const byAdmin = await asAdmin.GET("/users/{id}", { params: { path: { id: fixtureUsers.noOrders.id } } });
    expect(User.parse(byAdmin.data).id).toBe(fixtureUsers.noOrders.id);
    const self = await asBuyer.GET("/users/{id}", { params: { path: { id: fixtureUsers.buyer.id } } });
    expect(User.parse(self.data).role).toBe("customer");
  });
});
