// DATA_ACCESS=sql answers exactly as DATA_ACCESS=client: the same JSON, byte for byte (ISO timestamps with
// milliseconds, BIGINT totals as numbers, null descriptions, ordering and paging), and the same problems, checked
// against both modes on one seeded PostgreSQL.
import { randomBytes } from "node:crypto";
import type { CreateOrderBody, ListOrdersQuery, ListProductsQuery, ListUsersQuery } from "@api-ref/contract";
import { applyMigrations, fixtureOrders, fixtureProducts, fixtureUsers, MISSING_ID, seedDatabase } from "@api-ref/db";
import { type PostgresServer, provisionPostgres } from "@api-ref/db/provision";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataAccess, type DataAccess, type Principal } from "../src/index.ts";

const admin: Principal = { id: fixtureUsers.admin.id, role: "admin" };
const buyer: Principal = { id: fixtureUsers.buyer.id, role: "customer" };
const stranger: Principal = { id: fixtureUsers.noOrders.id, role: "customer" };

let server: PostgresServer;
let client: DataAccess;
let sql: DataAccess;

beforeAll(async () => {
  server = await provisionPostgres({ log() {} });
  const databaseUrl = await server.createDatabase(`core_sql_mode_${randomBytes(3).toString("hex")}`);
  await applyMigrations(databaseUrl);
  await seedDatabase(databaseUrl, { scale: 0.05 });
  const options = { databaseUrl, jwtSecret: "0123456789abcdef0123456789abcdef", poolSize: 2 };
  client = createDataAccess({ ...options, dataAccessMode: "client" });
  sql = createDataAccess({ ...options, dataAccessMode: "sql" });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await sql?.close();
  await server?.stop();
});

/** What a route would send: the JSON text of the answer, or of the problem it throws. */
const answer = (work: Promise<unknown>) =>
  work.then(
    (value) => JSON.stringify(value),
    (error: { toJSON?: () => unknown; status?: number }) => {
      if (typeof error.toJSON !== "function") throw error;
      return `${error.status} ${JSON.stringify(error.toJSON())}`;
    },
  );

const both = async (call: (d: DataAccess) => Promise<unknown>) => {
  const [fromClient, fromSql] = [await answer(call(client)), await answer(call(sql))];
  return { fromClient, fromSql };
};

describe("DATA_ACCESS=sql answers as client does", () => {
  it.each([
    ["a user, to an admin", (d: DataAccess) => d.users.get(fixtureUsers.buyer.id, admin)],
    ["a user, to themself", (d: DataAccess) => d.users.get(fixtureUsers.buyer.id, buyer)],
    ["a user, to another customer (404)", (d: DataAccess) => d.users.get(fixtureUsers.buyer.id, stranger)],
    ["a product with a description", (d: DataAccess) => d.products.get(fixtureProducts.lowStock.id)],
    ["a product whose description is null", (d: DataAccess) => d.products.get(fixtureProducts.unordered.id)],
    ["an order", (d: DataAccess) => d.orders.get(fixtureOrders.delivered.id, undefined, admin)],
    ["an order with its user", (d: DataAccess) => d.orders.get(fixtureOrders.shipped.id, ["user"], buyer)],
    ["an order with both", (d: DataAccess) => d.orders.get(fixtureOrders.pending.id, ["user", "product"], admin)],
    ["another's order (404)", (d: DataAccess) => d.orders.get(fixtureOrders.pending.id, ["user"], stranger)],
    ["an unknown user (404)", (d: DataAccess) => d.users.get(MISSING_ID, admin)],
    ["an unknown product (404)", (d: DataAccess) => d.products.get(MISSING_ID)],
    ["an unknown order (404)", (d: DataAccess) => d.orders.get(MISSING_ID, ["user"], admin)],
  ])("%s", async (_, call) => {
    const { fromClient, fromSql } = await both(call);
    expect(fromSql).toBe(fromClient);
  });

  it("keeps timestamps' milliseconds, BIGINT totals as numbers and nulls", async () => {
    const product = JSON.parse(await answer(sql.products.get(fixtureProducts.unordered.id)));
    expect(product).toMatchObject({ description: null, priceCents: 30000 });
    expect(product.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const order = JSON.parse(await answer(sql.orders.get(fixtureOrders.delivered.id, undefined, admin)));
    expect(typeof order.totalCents).toBe("number");
    expect(order.totalCents).toBe(order.unitPriceCents * order.quantity);
  });

  const users: ListUsersQuery[] = [
    { page: 1, limit: 20 },
    { page: 3, limit: 7 },
    { page: 1, limit: 50, q: "FIXTURE" },
    { page: 1, limit: 20, q: "100%_\\" },
  ];
  it.each(users)("users.list(%o)", async (query) => {
    const { fromClient, fromSql } = await both((d) => d.users.list(query));
    expect(fromSql).toBe(fromClient);
  });

  const products: ListProductsQuery[] = [
    { page: 1, limit: 20, sort: "-createdAt" },
    { page: 2, limit: 13, sort: "createdAt" },
    { page: 1, limit: 30, sort: "priceCents", minPriceCents: 1000, maxPriceCents: 50_000 },
    { page: 2, limit: 10, sort: "-priceCents", inStock: true },
    { page: 1, limit: 100, sort: "name", inStock: false },
    { page: 1, limit: 20, sort: "name", q: "fixture" },
    { page: 99, limit: 100, sort: "-createdAt" },
  ];
  it.each(products)("products.list(%o)", async (query) => {
    const { fromClient, fromSql } = await both((d) => d.products.list(query));
    expect(fromSql).toBe(fromClient);
  });

  const orders: ListOrdersQuery[] = [
    { page: 1, limit: 20 },
    { page: 2, limit: 15, include: ["user", "product"] },
    { page: 1, limit: 10, status: "shipped", include: ["product"] },
    { page: 1, limit: 10, userId: fixtureUsers.buyer.id, include: ["user"] },
    { page: 1, limit: 10, productId: fixtureProducts.ordered.id, status: "cancelled" },
    { page: 1, limit: 10, userId: MISSING_ID, include: ["user", "product"] },
  ];
  it.each(orders)("orders.list(%o)", async (query) => {
    for (const principal of [admin, buyer, stranger]) {
      const { fromClient, fromSql } = await both((d) => d.orders.list(query, principal));
      expect(fromSql).toBe(fromClient);
    }
  });

  it("lists a customer's own orders only", async () => {
    const own = await sql.orders.list({ page: 1, limit: 100 }, buyer);
    expect(own.total).toBe(Object.keys(fixtureOrders).length);
    expect(new Set(own.data.map((o) => o.userId))).toEqual(new Set([buyer.id]));
    expect((await sql.orders.list({ page: 1, limit: 10, userId: buyer.id }, stranger)).total).toBe(0);
  });
});

describe("order creation in sql mode", () => {
  const body = (over: Partial<CreateOrderBody> = {}): CreateOrderBody => ({
    productId: fixtureProducts.unordered.id,
    quantity: 3,
    ...over,
  });
  /** An order's JSON without what differs between two orders (id, timestamps). */
  const shape = (json: string) => {
    const { id, createdAt, updatedAt, ...rest } = JSON.parse(json).order;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(createdAt).toBe(updatedAt);
    return rest;
  };

  it("records the same order and takes the stock", async () => {
    const before = (await sql.products.get(fixtureProducts.unordered.id)).stock;
    const { fromClient, fromSql } = await both((d) => d.orders.create(body(), stranger));
    expect(shape(fromSql)).toEqual(shape(fromClient));
    expect(shape(fromSql)).toEqual({
      ...body(),
      userId: stranger.id,
      unitPriceCents: 30000,
      totalCents: 90000,
      status: "pending",
    });
    expect((await sql.products.get(fixtureProducts.unordered.id)).stock).toBe(before - 6);
  });

  it.each([
    ["an unknown product", { productId: MISSING_ID }],
    ["too little stock", { productId: fixtureProducts.outOfStock.id }],
  ])("refuses %s with the same problem", async (_, over) => {
    const { fromClient, fromSql } = await both((d) => d.orders.create(body(over), stranger));
    expect(fromSql).toMatch(/^(409|422) /);
    expect(fromSql).toBe(fromClient);
  });

  it("replays an idempotent order", async () => {
    const key = `sql-mode-${randomBytes(4).toString("hex")}`;
    const first = await sql.orders.create(body({ quantity: 1 }), stranger, key);
    const again = await sql.orders.create(body({ quantity: 1 }), stranger, key);
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ order: first.order, replayed: true });
  });

  it("keeps one user's idempotency key apart from another's", async () => {
    const key = `sql-mode-${randomBytes(4).toString("hex")}`;
    const theirs = await sql.orders.create(body({ quantity: 1 }), stranger, key);
    const mine = await sql.orders.create(body({ quantity: 1 }), admin, key);
    expect(mine.replayed).toBe(false);
    expect(mine.order.id).not.toBe(theirs.order.id);
    expect(mine.order.userId).toBe(admin.id);
  });
});
