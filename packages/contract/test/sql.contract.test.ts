// SQL statements per request: bounded per route (no N+1: a page of orders with their users and products costs
// the same whatever its size), and the same across the TypeScript implementations, which share one data access
// layer. Counted with pg_stat_statements on each implementation's own database (support/sql-counter.ts): a few
// warm-up requests, then each measured request alone, with the count read before and after it.
//
// Counted are the statements that do work (SELECT, INSERT, UPDATE, DELETE, …); BEGIN, COMMIT and other utility
// statements are not, because pg_stat_statements cannot count them reliably when they are sent as named prepared
// statements (see support/sql-counter.ts). Every route but /health must read or write the database — the data is
// shared with every other implementation, so nothing may be served from a cache — hence at least 1.
//
// Every route that needs a token reads its caller first (the user must still exist, and the role is read from the
// database on every request, never from the token): 1 statement more than the route's own work, the "+ caller"
// below. Requests are sent as whom the route is for: the admin on admin routes, a customer on their own rows.
//
// | route                                               | at most | what it needs                                 |
// |-----------------------------------------------------|---------|-----------------------------------------------|
// | GET /health                                         | 0       | never touches the database                    |
// | GET /ready                                          | 1       | one ping                                      |
// | GET /products/:id                                   | 1       | one lookup                                    |
// | GET /users/:id                                      | 2       | + caller, one lookup                          |
// | GET /products?filters                               | 1       | the page                                      |
// | GET /products?filters&total=true                    | 2       | the page and the total                        |
// | GET /users, GET /users?q=                           | 2       | + caller, the page                            |
// | GET /users?total=true                               | 3       | + caller, the page and the total              |
// | GET /orders?status=                                 | 2       | + caller, the page                            |
// | GET /orders?cursor=                                 | 3       | + caller, the page: the rows at the cursor's  |
// |                                                     |         | key, then (unless they fill it) those past it |
// | GET /orders?include=user,product (limit 5 and 50)   | 4       | + caller, page, one query per relation; the   |
// |                                                     |         | same for 5 and for 50 orders                  |
// | GET /orders/:id?include=user,product                | 4       | + caller, the order, one query per relation   |
// | POST /orders                                        | 5       | + caller, conditional stock decrement,        |
// |                                                     |         | insert; 2 spare (≤ 7 with BEGIN and COMMIT)   |
// | POST /orders with an idempotency-key                | 7       | the above plus claiming and completing the    |
// |                                                     |         | key; 2 spare                                  |
// | PATCH /orders/:id (ship, by the admin)              | 3       | + caller, conditional update; 1 spare         |
// | PATCH /orders/:id (cancel, by its customer)         | 4       | + caller, conditional update, restock; 1 spare|
// | POST /auth/login                                    | 1       | one lookup by e-mail                          |
// | GET /auth/me                                        | 2       | + caller, one lookup by id                    |
import { randomUUID } from "node:crypto";
import { fixtureOrders, fixtureUsers, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { implementations, NEEDS } from "@api-ref/harness";
import type { Response, Test } from "supertest";
import { afterAll, beforeAll, expect, it } from "vitest";
import { encodeCursor } from "../src/index.ts";
import { createCustomer } from "./support/http-asserts.ts";
import { StatementCounter } from "./support/sql-counter.ts";
import { describeEachTarget, http, httpAs, type Target, targets } from "./targets.ts";

const WARM_UP = 2;
const MEASURED = 5;

interface Fixture {
  /** A customer of our own, who places the orders: their `authorization` header. */
  customer: string;
  productId: string;
  /** Pending orders of the customer's, used up one per PATCH. */
  pendingOrders: { ship: string[]; cancel: string[] };
  token: string;
}

interface RouteCheck {
  label: string;
  bound: number;
  status: number;
  send(target: Target, fixture: Fixture): Test;
}

/** The admin ships one of the fixture's pending orders. */
const ship: RouteCheck["send"] = (t, f) =>
  admin(t)
    .patch(`/orders/${takeOrder(f.pendingOrders.ship)}`)
    .send({ status: "shipped" });
/** The customer cancels one of their own pending orders. */
const cancel: RouteCheck["send"] = (t, f) =>
  httpAs(t, { authorization: f.customer })
    .patch(`/orders/${takeOrder(f.pendingOrders.cancel)}`)
    .send({ status: "cancelled" });
const admin = (t: Target) => httpAs(t, "admin");

const PRODUCT_FILTERS = "q=oak&minPriceCents=100&maxPriceCents=80000&inStock=true&sort=-priceCents&limit=20";
/** A cursor ahead of every order: its page is the newest orders, read by cursor. */
const NEWEST = encodeCursor("-createdAt", {
  key: "2100-01-01T00:00:00.000Z",
  id: "00000000-0000-0000-0000-000000000000",
});
const ORDERS_WITH_RELATIONS_5 = "GET /orders?include=user,product&limit=5";
const ORDERS_WITH_RELATIONS_50 = "GET /orders?include=user,product&limit=50";

const ROUTES: readonly RouteCheck[] = [
  { label: "GET /health", bound: 0, status: 200, send: (t) => http(t).get("/health") },
  { label: "GET /ready", bound: 1, status: 200, send: (t) => http(t).get("/ready") },
  { label: "GET /users/:id", bound: 2, status: 200, send: (t) => admin(t).get(`/users/${fixtureUsers.buyer.id}`) },
  { label: "GET /products/:id", bound: 1, status: 200, send: (t, f) => http(t).get(`/products/${f.productId}`) },
  { label: "GET /users", bound: 2, status: 200, send: (t) => admin(t).get("/users") },
  { label: "GET /users?q=", bound: 2, status: 200, send: (t) => admin(t).get("/users?q=ada&limit=10") },
  { label: "GET /users?total=true", bound: 3, status: 200, send: (t) => admin(t).get("/users?total=true") },
  {
    label: "GET /products?q=&minPriceCents=&maxPriceCents=&inStock=&sort=",
    bound: 1,
    status: 200,
    send: (t) => http(t).get(`/products?${PRODUCT_FILTERS}`),
  },
  {
    label: "GET /products?q=&minPriceCents=&maxPriceCents=&inStock=&sort=&total=true",
    bound: 2,
    status: 200,
    send: (t) => http(t).get(`/products?${PRODUCT_FILTERS}&total=true`),
  },
  { label: "GET /orders?status=", bound: 2, status: 200, send: (t) => admin(t).get("/orders?status=pending&limit=20") },
  { label: "GET /orders?cursor=", bound: 3, status: 200, send: (t) => admin(t).get(`/orders?cursor=${NEWEST}`) },
  {
    label: ORDERS_WITH_RELATIONS_5,
    bound: 4,
    status: 200,
    send: (t) => admin(t).get("/orders?include=user,product&limit=5"),
  },
  {
    label: ORDERS_WITH_RELATIONS_50,
    bound: 4,
    status: 200,
    send: (t) => admin(t).get("/orders?include=user,product&limit=50"),
  },
  {
    label: "GET /orders/:id?include=user,product",
    bound: 4,
    status: 200,
    send: (t) => httpAs(t, "buyer").get(`/orders/${fixtureOrders.delivered.id}?include=user,product`),
  },
  {
    label: "POST /orders",
    bound: 5,
    status: 201,
    send: (t, f) =>
      httpAs(t, { authorization: f.customer }).post("/orders").send({ productId: f.productId, quantity: 1 }),
  },
  {
    label: "POST /orders with an idempotency-key",
    bound: 7,
    status: 201,
    send: (t, f) =>
      httpAs(t, { authorization: f.customer })
        .post("/orders")
        .set("idempotency-key", `sql-${randomUUID()}`)
        .send({ productId: f.productId, quantity: 1 }),
  },
  {
    label: "PATCH /orders/:id (ship, by the admin)",
    bound: 3,
    status: 200,
    send: ship,
  },
  {
    label: "PATCH /orders/:id (cancel, by its customer)",
    bound: 4,
    status: 200,
    send: cancel,
  },
  {
    label: "POST /auth/login",
    bound: 1,
    status: 200,
    send: (t) => http(t).post("/auth/login").send({ email: fixtureUsers.buyer.email, password: SEED_PASSWORD }),
  },
  {
    label: "GET /auth/me",
    bound: 2,
    status: 200,
    send: (t, f) => http(t).get("/auth/me").set("authorization", `Bearer ${f.token}`),
  },
];

function takeOrder(orders: string[]): string {
  const id = orders.shift();
  if (!id) throw new Error("ran out of pending orders to change");
  return id;
}

/** Rows of our own for the routes that write: a customer, a product with plenty of stock, their pending orders. */
async function createFixture(target: Target): Promise<Fixture> {
  const customer = (await createCustomer(target, { name: "SQL Counter" })).authorization;
  const product = await admin(target)
    .post("/products")
    .send({ name: `SQL counter ${randomUUID()}`, priceCents: 100, stock: 1000 });
  expect(product.status, JSON.stringify(product.body)).toBe(201);
  const pendingOrders: Fixture["pendingOrders"] = { ship: [], cancel: [] };
  for (const orders of [pendingOrders.ship, pendingOrders.cancel]) {
    for (let i = 0; i < WARM_UP + MEASURED; i++) {
      const order = await httpAs(target, { authorization: customer })
        .post("/orders")
        .send({ productId: product.body.id, quantity: 1 });
      expect(order.status, JSON.stringify(order.body)).toBe(201);
      orders.push(order.body.id);
    }
  }
  const login = await http(target)
    .post("/auth/login")
    .send({ email: fixtureUsers.buyer.email, password: SEED_PASSWORD });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { customer, productId: product.body.id, pendingOrders, token: login.body.token };
}

type Measurement = { counts: number[] } | { error: string };
type TargetMeasurements = { unavailable: string } | { routes: Map<string, Measurement> };

async function measureTarget(target: Target): Promise<TargetMeasurements> {
  if (!target.databaseUrl) return { unavailable: NEEDS.database };
  const counter = await StatementCounter.open(target.databaseUrl);
  if ("unavailable" in counter) return counter;
  const routes = new Map<string, Measurement>();
  try {
    const fixture = await createFixture(target);
    for (const route of ROUTES) {
      const check = (res: Response) => {
        if (res.status !== route.status) {
          throw new Error(
            `${route.label} answered ${res.status} (expected ${route.status}): ${res.text.slice(0, 300)}`,
          );
        }
      };
      try {
        for (let i = 0; i < WARM_UP; i++) check(await route.send(target, fixture));
        const counts: number[] = [];
        for (let i = 0; i < MEASURED; i++) {
          const before = await counter.settledTotal();
          check(await route.send(target, fixture));
          counts.push((await counter.settledTotal()) - before);
        }
        routes.set(route.label, { counts });
      } catch (error) {
        routes.set(route.label, { error: (error as Error).message });
      }
    }
  } finally {
    await counter.close();
  }
  return { routes };
}

const measured = new Map<string, Promise<TargetMeasurements>>();
const measure = (target: Target) => {
  let m = measured.get(target.name);
  if (!m) {
    m = measureTarget(target);
    measured.set(target.name, m);
  }
  return m;
};

const cell = (m: Measurement | undefined) => {
  if (!m) return "-";
  if ("error" in m) return "error";
  const min = Math.min(...m.counts);
  const max = Math.max(...m.counts);
  return min === max ? String(max) : `${min}–${max}`;
};

async function table(): Promise<string> {
  const done = await Promise.all([...measured].map(async ([name, m]) => [name, await m] as const));
  const rows = [
    ["route", "bound", ...done.map(([name]) => name)],
    ...ROUTES.map((r) => [
      r.label,
      String(r.bound),
      ...done.map(([, m]) => ("routes" in m ? cell(m.routes.get(r.label)) : "n/a")),
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length))) ?? [];
  const line = (row: string[]) => `| ${row.map((v, i) => v.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(rows[0] ?? []), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.slice(1).map(line)].join(
    "\n",
  );
}

afterAll(async () => {
  const results = await Promise.all(measured.values());
  if (results.some((m) => "routes" in m)) console.log(`SQL statements per request\n${await table()}`);
});

const languageOf = (target: Target) => implementations.find((i) => i.name === target.name)?.language;
const typescriptTargets = targets.filter((t) => languageOf(t) === "typescript");

async function routeCounts(target: Target, label: string, skip: (note: string) => never): Promise<number[]> {
  const m = await measure(target);
  if ("unavailable" in m) skip(m.unavailable);
  const route = m.routes.get(label);
  if (!route) throw new Error(`${label} was not measured`);
  if ("error" in route) throw new Error(route.error);
  return route.counts;
}

/** Every route measured for one implementation: each request alone, the counter settled around it. */
const MEASURE_TIMEOUT_MS = 300_000;

describeEachTarget((target) => {
  // Set-up, not a check: with every implementation measured at once, it takes longer than one check may.
  beforeAll(async () => {
    await measure(target);
  }, MEASURE_TIMEOUT_MS);

  for (const route of ROUTES) {
    const what =
      route.bound === 0
        ? "no SQL statement"
        : route.bound === 1
          ? "exactly 1 SQL statement"
          : `1 to ${route.bound} SQL statements`;
    it(`runs ${what} for ${route.label}`, async (ctx) => {
      const counts = await routeCounts(target, route.label, (note) => ctx.skip(note));
      const message = `statements per request: ${counts.join(", ")}`;
      expect(Math.max(...counts), message).toBeLessThanOrEqual(route.bound);
      expect(Math.min(...counts), message).toBeGreaterThanOrEqual(Math.min(route.bound, 1));
    });
  }

  it("runs as many statements for a page of 50 orders with their users and products as for a page of 5 (no N+1)", async (ctx) => {
    const five = await routeCounts(target, ORDERS_WITH_RELATIONS_5, (note) => ctx.skip(note));
    const fifty = await routeCounts(target, ORDERS_WITH_RELATIONS_50, (note) => ctx.skip(note));
    expect(Math.max(...fifty), `limit=5: ${five.join(", ")}; limit=50: ${fifty.join(", ")}`).toBe(Math.max(...five));
  });

  const others = typescriptTargets.filter((t) => t.name !== target.name);
  if (languageOf(target) === "typescript" && others.length > 0) {
    it(`runs as many statements per route as ${others.map((t) => t.name).join(", ")} (the TypeScript implementations share their data access)`, async (ctx) => {
      const mine = await measure(target);
      if ("unavailable" in mine) return ctx.skip(mine.unavailable);
      const differences: string[] = [];
      for (const other of others) {
        const theirs = await measure(other);
        if ("unavailable" in theirs) continue;
        for (const route of ROUTES) {
          const a = cell(mine.routes.get(route.label));
          const b = cell(theirs.routes.get(route.label));
          if (a !== b) differences.push(`${route.label}: ${target.name} ${a}, ${other.name} ${b}`);
        }
      }
      expect(differences, `${differences.join("\n")}\n\n${await table()}`).toEqual([]);
      // The first of these measures every TypeScript implementation (later ones reuse the figures).
    }, 600_000);
  }
});
