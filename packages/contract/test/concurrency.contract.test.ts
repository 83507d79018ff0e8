// Concurrency: what a shop must get right when requests race. Every burst is real concurrency: the requests
// are all in flight at once, each on its own connection (a fresh http.Agent per request), against the
// implementation's own process and database.
//
// fixtureProducts.lowStock belongs to this file (nobody else touches it); every other row these tests write is
// created here (a user and products of their own), and fixtureProducts.outOfStock is only ever read.
import { randomUUID } from "node:crypto";
import { Agent } from "node:http";
import { fixtureProducts } from "@api-ref/db/fixtures";
import { sql } from "@api-ref/harness";
import type { Response } from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { PROBLEMS } from "../src/problems.ts";
import { createCustomer } from "./support/http-asserts.ts";
import { http, httpAs, type Target, targets } from "./targets.ts";

/**
 * A request builder on its own connection, so that a burst is parallel on the wire too; signed in with
 * `authorization` when given.
 */
const fresh = (target: Target, authorization?: string) => {
  const agent = new Agent({ keepAlive: false });
  return {
    post: (path: string) => {
      const req = http(target).post(path).agent(agent);
      return authorization ? req.set("authorization", authorization) : req;
    },
  };
};

const countBy = (responses: Response[]) => {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

const expectConflict = (res: Response) => {
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ type: PROBLEMS.conflict.type, title: PROBLEMS.conflict.title, status: 409 });
};

/** Stock and number of orders of a product: from its database when the suite owns it, else through the API. */
/** POST /orders with an idempotency key, by the customer whose `authorization` it carries. */
const orderWithKey = (target: Target, authorization: string, key: string, body: object) =>
  httpAs(target, { authorization }).post("/orders").set("idempotency-key", key).send(body);

async function productState(target: Target, productId: string) {
  if (target.databaseUrl) {
    const [row] = await sql<{ stock: number; orders: string }>(
      target.databaseUrl,
      "SELECT stock, (SELECT count(*) FROM orders WHERE product_id = $1) AS orders FROM products WHERE id = $1",
      [productId],
    );
    if (!row) throw new Error(`product ${productId} is not in the database`);
    return { stock: row.stock, orders: Number(row.orders) };
  }
  const product = await http(target).get(`/products/${productId}`).expect(200);
  const orders = await httpAs(target, "admin").get(`/orders?productId=${productId}&limit=1&total=true`).expect(200);
  return { stock: product.body.stock as number, orders: orders.body.total as number };
}

async function createProduct(target: Target, stock: number): Promise<{ id: string; priceCents: number }> {
  const res = await httpAs(target, "admin")
    .post("/products")
    .send({ name: `Concurrency product ${randomUUID()}`, priceCents: 1234, stock });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, priceCents: 1234 };
}

describe.each(targets)("$name", (target: Target) => {
  let buyerId: string;
  let buyer: string;
  beforeAll(async () => {
    ({ id: buyerId, authorization: buyer } = await createCustomer(target, { name: "Concurrency buyer" }));
  });

  describe("50 concurrent orders for the last 10 items in stock", () => {
    let before: { stock: number; orders: number };
    let responses: Response[];
    beforeAll(async () => {
      before = await productState(target, fixtureProducts.lowStock.id);
      responses = await Promise.all(
        Array.from({ length: 50 }, () =>
          fresh(target, buyer).post("/orders").send({ productId: fixtureProducts.lowStock.id, quantity: 1 }),
        ),
      );
    });

    it("sells exactly the 10 items in stock and refuses the other 40 orders with 409", () => {
      // A precondition, not the behaviour under test: the low-stock fixture must be untouched when this starts.
      expect(before, "fixtureProducts.lowStock must start with stock 10 and no orders").toEqual({
        stock: 10,
        orders: 0,
      });
      expect(countBy(responses)).toEqual({ 201: 10, 409: 40 });
      for (const res of responses.filter((r) => r.status === 409)) {
        expectConflict(res);
        expect(res.body.errors?.map((e: { path: string }) => e.path)).toEqual(["body.quantity"]);
      }
      const created = responses.filter((r) => r.status === 201);
      for (const res of created) {
        expect(res.body).toMatchObject({
          userId: buyerId,
          productId: fixtureProducts.lowStock.id,
          quantity: 1,
          unitPriceCents: fixtureProducts.lowStock.priceCents,
          totalCents: fixtureProducts.lowStock.priceCents,
          status: "pending",
        });
        expect(res.headers.location).toBe(`/orders/${res.body.id}`);
      }
      expect(new Set(created.map((r) => r.body.id)).size).toBe(10);
    });

    it("leaves the stock at exactly 0 with exactly 10 orders recorded for the product", async () => {
      expect(await productState(target, fixtureProducts.lowStock.id)).toEqual({ stock: 0, orders: 10 });
    });
  });

  describe("20 concurrent registrations with the same new e-mail address", () => {
    const email = `race-${randomUUID()}@concurrency.contract.example.com`;
    let responses: Response[];
    beforeAll(async () => {
      responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fresh(target)
            .post("/auth/register")
            .send({ email, name: `Racer ${i}`, password: "race-password-1" }),
        ),
      );
    });

    it("registers exactly one account and refuses the other 19 with 409", () => {
      expect(countBy(responses)).toEqual({ 201: 1, 409: 19 });
      for (const res of responses.filter((r) => r.status === 409)) expectConflict(res);
      const winner = responses.find((r) => r.status === 201);
      expect(winner?.body.user.email).toBe(email);
    });

    it("stores exactly one user with that e-mail address", async () => {
      if (target.databaseUrl) {
        const rows = await sql(target.databaseUrl, "SELECT id FROM users WHERE email = $1", [email]);
        expect(rows).toHaveLength(1);
      } else {
        const res = await httpAs(target, "admin")
          .get(`/users?q=${encodeURIComponent(email)}&total=true`)
          .expect(200);
        expect(res.body.total).toBe(1);
      }
    });
  });

  describe("idempotency keys on POST /orders", () => {
    /** A first POST /orders of `quantity` of `productId` under a fresh key (`label` names it); it must answer `status`. */
    async function firstKeyedOrder(label: string, productId: string, quantity: number, status: number) {
      const key = `contract-${label}-${randomUUID()}`;
      const body = { productId, quantity };
      const first = await orderWithKey(target, buyer, key, body);
      expect(first.status, JSON.stringify(first.body)).toBe(status);
      return { key, body, first };
    }

    it("replays the first response (status, body and location) to a retry with the same key and body, and takes the stock once", async () => {
      const product = await createProduct(target, 20);
      const { key, body, first } = await firstKeyedOrder("replay", product.id, 3, 201);
      const retry = await orderWithKey(target, buyer, key, body);
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.location).toBe(first.headers.location);
      expect(retry.headers.location).toBe(`/orders/${first.body.id}`);
      expect(await productState(target, product.id)).toEqual({ stock: 17, orders: 1 });
    });

    it("refuses the same key with a different body with 422 and creates nothing more", async () => {
      const product = await createProduct(target, 20);
      const key = `contract-mismatch-${randomUUID()}`;
      const first = await orderWithKey(target, buyer, key, { productId: product.id, quantity: 1 });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      const other = await orderWithKey(target, buyer, key, { productId: product.id, quantity: 2 });
      expect(other.status).toBe(422);
      expect(other.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(other.body).toMatchObject({
        type: PROBLEMS.unprocessable.type,
        title: PROBLEMS.unprocessable.title,
        status: 422,
      });
      expect(await productState(target, product.id)).toEqual({ stock: 19, orders: 1 });
    });

    it("creates exactly one order when several requests with one key race; the others replay it or get 409", async () => {
      const product = await createProduct(target, 50);
      const key = `contract-race-${randomUUID()}`;
      const body = { productId: product.id, quantity: 2 };
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => fresh(target, buyer).post("/orders").set("idempotency-key", key).send(body)),
      );
      const statuses = countBy(responses);
      expect(
        responses.every((r) => r.status === 201 || r.status === 409),
        `statuses: ${JSON.stringify(statuses)}`,
      ).toBe(true);
      const created = responses.filter((r) => r.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      const [firstCreated] = created;
      for (const res of created) {
        expect(res.body).toEqual(firstCreated?.body);
        expect(res.headers.location).toBe(`/orders/${firstCreated?.body.id}`);
      }
      for (const res of responses.filter((r) => r.status === 409)) expectConflict(res);
      expect(await productState(target, product.id)).toEqual({ stock: 48, orders: 1 });
      // Once the first request has finished, a retry replays it.
      const retry = await orderWithKey(target, buyer, key, body);
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(firstCreated?.body);
    });

    it("replays a 409 to a retry of a key whose first request found the product out of stock", async () => {
      const { key, body, first } = await firstKeyedOrder("sold-out", fixtureProducts.outOfStock.id, 1, 409);
      expectConflict(first);
      expect(first.body.errors?.map((e: { path: string }) => e.path)).toEqual(["body.quantity"]);
      const retry = await orderWithKey(target, buyer, key, body);
      expect(retry.status).toBe(409);
      expect(retry.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(retry.body).toEqual(first.body);
      const orders = await httpAs(target, "admin").get(
        `/orders?userId=${buyerId}&productId=${fixtureProducts.outOfStock.id}&total=true`,
      );
      expect(orders.body.total).toBe(0);
    });

    it("keeps answering that 409 to the key after the product is restocked, while a new request succeeds", async () => {
      const product = await createProduct(target, 0);
      const { key, body, first } = await firstKeyedOrder("restocked", product.id, 1, 409);
      await httpAs(target, "admin").patch(`/products/${product.id}`).send({ stock: 5 }).expect(200);
      const retry = await orderWithKey(target, buyer, key, body);
      expect(retry.status, "a retry replays the recorded answer; it is not a new attempt").toBe(409);
      expect(retry.body).toEqual(first.body);
      const withoutKey = await httpAs(target, { authorization: buyer }).post("/orders").send(body);
      expect(withoutKey.status, JSON.stringify(withoutKey.body)).toBe(201);
      expect(await productState(target, product.id)).toEqual({ stock: 4, orders: 1 });
    });
  });
});
