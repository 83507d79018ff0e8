// DATA_ACCESS=sql answers exactly as DATA_ACCESS=client: the same JSON, byte for byte (ISO timestamps with
// milliseconds, BIGINT totals as numbers, null descriptions, ordering and paging), and the same problems, checked
// against both modes on one seeded PostgreSQL.
import { randomBytes } from "node:crypto";
import type { CreateOrderBody, ListOrdersQuery, ListProductsQuery, ListUsersQuery, Page } from "@api-ref/contract";
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
    { page: 1, limit: 20, total: true },
    { page: 3, limit: 7, total: true },
    { page: 1, limit: 50, total: true, q: "FIXTURE" },
    { page: 1, limit: 20, total: true, q: "100%_\\" },
  ];
  it.each(users)("users.list(%o)", async (query) => {
    const { fromClient, fromSql } = await both((d) => d.users.list(query));
    expect(fromSql).toBe(fromClient);
  });

  const products: ListProductsQuery[] = [
    { page: 1, limit: 20, total: true, sort: "-createdAt" },
    { page: 2, limit: 13, total: false, sort: "createdAt" },
    { page: 1, limit: 30, total: true, sort: "priceCents", minPriceCents: 1000, maxPriceCents: 50_000 },
    { page: 2, limit: 10, total: false, sort: "-priceCents", inStock: true },
    { page: 1, limit: 100, total: true, sort: "name", inStock: false },
    { page: 1, limit: 20, total: true, sort: "name", q: "fixture" },
    { page: 99, limit: 100, total: true, sort: "-createdAt" },
  ];
  it.each(products)("products.list(%o)", async (query) => {
    const { fromClient, fromSql } = await both((d) => d.products.list(query));
    expect(fromSql).toBe(fromClient);
  });

  const orders: ListOrdersQuery[] = [
    { page: 1, limit: 20, total: true },
    { page: 2, limit: 15, total: false, include: ["user", "product"] },
    { page: 1, limit: 10, total: true, status: "shipped", include: ["product"] },
    { page: 1, limit: 10, total: true, userId: fixtureUsers.buyer.id, include: ["user"] },
    { page: 1, limit: 10, total: true, productId: fixtureProducts.ordered.id, status: "cancelled" },
    { page: 1, limit: 10, total: true, userId: MISSING_ID, include: ["user", "product"] },
  ];
  it.each(orders)("orders.list(%o)", async (query) => {
    for (const principal of [admin, buyer, stranger]) {
      const { fromClient, fromSql } = await both((d) => d.orders.list(query, principal));
      expect(fromSql).toBe(fromClient);
    }
  });

  it("lists a customer's own orders only", async () => {
    const own = await sql.orders.list({ page: 1, limit: 100, total: true }, buyer);
    expect(own.total).toBe(Object.keys(fixtureOrders).length);
    expect(new Set(own.data.map((o) => o.userId))).toEqual(new Set([buyer.id]));
    expect((await sql.orders.list({ page: 1, limit: 10, total: true, userId: buyer.id }, stranger)).total).toBe(0);
  });
});

/** Every row of a list, by following nextCursor from the first page; also every page's JSON, to compare modes. */
async function walk<T extends { id: string }>(
  read: (cursor: string | undefined) => Promise<Page<T>>,
): Promise<{ ids: string[]; pages: string[] }> {
  const ids: string[] = [];
  const pages: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    pages.push(JSON.stringify(page));
    ids.push(...page.data.map((row) => row.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { ids, pages };
}

/** Every row of a list in one read (OFFSET 0, the largest limit, page after page): what a walk must equal. */
async function everyRow<T extends { id: string }>(read: (page: number) => Promise<Page<T>>) {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const { data } = await read(page);
    ids.push(...data.map((row) => row.id));
    if (data.length < 100) return ids;
  }
}

describe("cursor walks", () => {
  it.each(["-createdAt", "createdAt", "priceCents", "-priceCents", "name"] as const)(
    "products by %s: every row once, in order, the same pages in both modes",
    async (sort) => {
      const byClient = await walk((cursor) => client.products.list({ cursor, limit: 7, total: false, sort }));
      const bySql = await walk((cursor) => sql.products.list({ cursor, limit: 7, total: false, sort }));
      expect(bySql.pages).toEqual(byClient.pages);
      expect(byClient.ids).toEqual(
        await everyRow((page) => sql.products.list({ page, limit: 100, total: false, sort })),
      );
    },
  );

  it("users and orders (filtered, as a customer): every row once, in order, the same pages in both modes", async () => {
    for (const mode of [client, sql]) {
      const users = await walk((cursor) => mode.users.list({ cursor, limit: 9, total: false }));
      expect(users.ids).toEqual(await everyRow((page) => mode.users.list({ page, limit: 100, total: false })));
    }
    const query = { limit: 3, total: false, include: ["product" as const] };
    const byClient = await walk((cursor) => client.orders.list({ ...query, cursor }, buyer));
    const bySql = await walk((cursor) => sql.orders.list({ ...query, cursor }, buyer));
    expect(bySql.pages).toEqual(byClient.pages);
    expect(byClient.ids).toEqual(await everyRow((page) => sql.orders.list({ page, limit: 100, total: false }, buyer)));
  });

  it("a page number's nextCursor goes on where that page ends", async () => {
    const second = await sql.orders.list({ page: 2, limit: 5, total: false }, admin);
    const third = await sql.orders.list({ page: 3, limit: 5, total: false }, admin);
    const next = await client.orders.list({ cursor: second.nextCursor ?? "", limit: 5, total: false }, admin);
    expect(next).toEqual({ ...third, page: null });
  });

  it("counts only when asked, and the last page has no nextCursor", async () => {
    const counted = await sql.users.list({ page: 1, limit: 100, total: true });
    expect(counted.total).toBeGreaterThan(0);
    expect(counted.pages).toBe(Math.ceil((counted.total ?? 0) / 100));
    const last = await sql.users.list({ page: counted.pages ?? 1, limit: 100, total: false });
    expect(last).toMatchObject({ total: null, pages: null, nextCursor: null });
  });

  it("a cursor in another sort, or beside a page, is a 400", async () => {
    const { nextCursor } = await sql.products.list({ limit: 1, total: false, sort: "name" });
    for (const mode of [client, sql]) {
      await expect(
        mode.products.list({ cursor: nextCursor ?? "", limit: 1, total: false, sort: "priceCents" }),
      ).rejects.toMatchObject({ status: 400 });
      await expect(
        mode.products.list({ cursor: nextCursor ?? "", page: 2, limit: 1, total: false, sort: "name" }),
      ).rejects.toMatchObject({ status: 400 });
    }
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
