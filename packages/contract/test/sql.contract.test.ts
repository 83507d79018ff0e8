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
// | route                                               | at most | what it needs                                 |
// |-----------------------------------------------------|---------|-----------------------------------------------|
// | GET /health                                         | 0       | never touches the database                    |
// | GET /ready                                          | 1       | one ping                                      |
// | GET /users/:id, GET /products/:id                   | 1       | one lookup                                    |
// | GET /users, GET /users?q=, GET /products?filters    | 2       | the page and the total                        |
// | GET /orders?status=                                 | 2       | the page and the total                        |
// | GET /orders?include=user,product (limit 5 and 50)   | 4       | page, total, one query per relation; the same |
// |                                                     |         | for 5 and for 50 orders                       |
// | GET /orders/:id?include=user,product                | 3       | the order, one query per relation             |
// | POST /orders                                        | 4       | conditional stock decrement, insert; 2 spare  |
// |                                                     |         | (≤ 6 with BEGIN and COMMIT)                   |
// | POST /orders with an idempotency-key                | 6       | the above plus claiming and completing the    |
// |                                                     |         | key; 2 spare                                  |
// | PATCH /orders/:id (ship)                            | 2       | conditional update; 1 spare                   |
// | PATCH /orders/:id (cancel, restocks)                | 3       | conditional update, restock; 1 spare          |
// | POST /auth/login                                    | 1       | one lookup by e-mail                          |
// | GET /auth/me                                        | 1       | one lookup by id                              |
import { randomUUID } from "node:crypto";
import { fixtureOrders, fixtureUsers, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { implementations, NEEDS } from "@api-ref/harness";
import type { Response, Test } from "supertest";
import { afterAll, describe, expect, it } from "vitest";
import { StatementCounter } from "./support/sql-counter.ts";
import { http, targets } from "./targets.ts";

type Target = (typeof targets)[number];

const WARM_UP = 2;
const MEASURED = 5;

interface Fixture {
  userId: string;
  productId: string;
  /** Pending orders of our own, used up one per PATCH. */
  pendingOrders: string[];
  token: string;
}

interface RouteCheck {
  label: string;
  bound: number;
  status: number;
  send(target: Target, fixture: Fixture): Test;
}

/** PATCH /orders/:id to `status`, on one of the fixture's pending orders. */
const moveOrderTo =
  (status: string): RouteCheck["send"] =>
  (t, f) =>
    http(t)
      .patch(`/orders/${takeOrder(f)}`)
      .send({ status });

const ORDERS_WITH_RELATIONS_5 = "GET /orders?include=user,product&limit=5";
const ORDERS_WITH_RELATIONS_50 = "GET /orders?include=user,product&limit=50";

const ROUTES: readonly RouteCheck[] = [
  { label: "GET /health", bound: 0, status: 200, send: (t) => http(t).get("/health") },
  { label: "GET /ready", bound: 1, status: 200, send: (t) => http(t).get("/ready") },
  { label: "GET /users/:id", bound: 1, status: 200, send: (t) => http(t).get(`/users/${fixtureUsers.buyer.id}`) },
  { label: "GET /products/:id", bound: 1, status: 200, send: (t, f) => http(t).get(`/products/${f.productId}`) },
  { label: "GET /users", bound: 2, status: 200, send: (t) => http(t).get("/users") },
  { label: "GET /users?q=", bound: 2, status: 200, send: (t) => http(t).get("/users?q=ada&limit=10") },
  {
    label: "GET /products?q=&minPriceCents=&maxPriceCents=&inStock=&sort=",
    bound: 2,
    status: 200,
    send: (t) =>
      http(t).get("/products?q=oak&minPriceCents=100&maxPriceCents=80000&inStock=true&sort=-priceCents&limit=20"),
  },
  { label: "GET /orders?status=", bound: 2, status: 200, send: (t) => http(t).get("/orders?status=pending&limit=20") },
  {
    label: ORDERS_WITH_RELATIONS_5,
    bound: 4,
    status: 200,
    send: (t) => http(t).get("/orders?include=user,product&limit=5"),
  },
  {
    label: ORDERS_WITH_RELATIONS_50,
    bound: 4,
    status: 200,
    send: (t) => http(t).get("/orders?include=user,product&limit=50"),
  },
  {
    label: "GET /orders/:id?include=user,product",
    bound: 3,
    status: 200,
    send: (t) => http(t).get(`/orders/${fixtureOrders.delivered.id}?include=user,product`),
  },
  {
    label: "POST /orders",
    bound: 4,
    status: 201,
    send: (t, f) => http(t).post("/orders").send({ userId: f.userId, productId: f.productId, quantity: 1 }),
  },
  {
    label: "POST /orders with an idempotency-key",
    bound: 6,
    status: 201,
    send: (t, f) =>
      http(t)
        .post("/orders")
        .set("idempotency-key", `sql-${randomUUID()}`)
        .send({ userId: f.userId, productId: f.productId, quantity: 1 }),
  },
  {
    label: "PATCH /orders/:id (ship)",
    bound: 2,
    status: 200,
    send: moveOrderTo("shipped"),
  },
  {
    label: "PATCH /orders/:id (cancel, restocks)",
    bound: 3,
    status: 200,
    send: moveOrderTo("cancelled"),
  },
  {
    label: "POST /auth/login",
    bound: 1,
    status: 200,
    send: (t) => http(t).post("/auth/login").send({ email: fixtureUsers.buyer.email, password: SEED_PASSWORD }),
  },
  {
    label: "GET /auth/me",
    bound: 1,
    status: 200,
    send: (t, f) => http(t).get("/auth/me").set("authorization", `Bearer ${f.token}`),
  },
];

const PATCH_ROUTES = ROUTES.filter((r) => r.label.startsWith("PATCH /orders/:id")).length;

function takeOrder(fixture: Fixture): string {
  const id = fixture.pendingOrders.shift();
  if (!id) throw new Error("ran out of pending orders to change");
  return id;
}

/** Rows of our own for the routes that write: a user, a product with plenty of stock, pending orders. */
async function createFixture(target: Target): Promise<Fixture> {
  const user = await http(target)
    .post("/users")
    .send({ email: `sql-${randomUUID()}@sql.contract.example.com`, name: "SQL Counter" });
  expect(user.status, JSON.stringify(user.body)).toBe(201);
  const product = await http(target)
    .post("/products")
    .send({ name: `SQL counter ${randomUUID()}`, priceCents: 100, stock: 1000 });
  expect(product.status, JSON.stringify(product.body)).toBe(201);
  const pendingOrders: string[] = [];
  for (let i = 0; i < PATCH_ROUTES * (WARM_UP + MEASURED); i++) {
    const order = await http(target)
      .post("/orders")
      .send({ userId: user.body.id, productId: product.body.id, quantity: 1 });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    pendingOrders.push(order.body.id);
  }
  const login = await http(target)
    .post("/auth/login")
    .send({ email: fixtureUsers.buyer.email, password: SEED_PASSWORD });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { userId: user.body.id, productId: product.body.id, pendingOrders, token: login.body.token };
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

describe.each(targets)("$name", (target) => {
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
