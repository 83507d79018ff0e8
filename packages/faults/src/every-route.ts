// One valid request for every route of the contract's table, with the status it must get: the outage test runs
// these rounds until one passes completely ("every route works again"). Independent chains run concurrently so
// that a round takes as long as its longest chain, not the sum of its requests. Each request is sent by the caller
// its route admits (docs/api.md, "Authorization"): the admin for the back office, a customer for their own order.
import { randomUUID } from "node:crypto";
import { routes } from "@api-ref/contract";
import { fixtureUsers, MISSING_ID, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { describeOutcome, type Exchange, type Outcome, send } from "@api-ref/harness";

export interface RoundStep {
  /** The route template it covers, as in the route table: `GET /users/:id`. */
  route: string;
  exchange: Exchange;
  status: number;
}

/** The `authorization` headers of a round's two callers: the seed's admin, and a customer (placing the round's order). */
export interface RoundCallers {
  admin: string;
  customer: string;
}

export interface RoundResult {
  passed: boolean;
  startedAt: number;
  endedAt: number;
  failures: string[];
  /** Ids of orders this round created and then deleted (they are meant to be gone). */
  deletedOrders: string[];
}

const JSON_HEADERS = { "content-type": "application/json" };
const as = (authorization: string | undefined): Record<string, string> => (authorization ? { authorization } : {});
const post = (path: string, body: unknown, authorization?: string): Exchange => ({
  method: "POST",
  path,
  headers: { ...JSON_HEADERS, ...as(authorization) },
  body: JSON.stringify(body),
});
const patch = (path: string, body: unknown, authorization: string): Exchange => ({
  method: "PATCH",
  path,
  headers: { ...JSON_HEADERS, authorization },
  body: JSON.stringify(body),
});
const get = (path: string, authorization?: string): Exchange => ({
  method: "GET",
  path,
  ...(authorization ? { headers: { authorization } } : {}),
});
const del = (path: string, authorization: string): Exchange => ({ method: "DELETE", path, headers: { authorization } });

const idOf = (o: Outcome) => {
  try {
    return (JSON.parse(o.text) as { id?: string }).id ?? MISSING_ID;
  } catch {
    return MISSING_ID;
  }
};

/** Route keys (`GET /users/:id`) of the contract's table: what a round must cover. */
export const contractRoutes = () => routes.map((r) => `${r.method} ${r.path}`);

/**
 * Runs one round against `baseUrl`. Orders are placed on `orderProductId` (a product with enough stock) so that
 * the stock ledger of the other products is untouched; every row the round creates, it deletes again.
 */
export async function runRound(
  baseUrl: string,
  orderProductId: string,
  options: { timeoutMs: number; callers: RoundCallers },
): Promise<RoundResult & { covered: string[] }> {
  const { admin, customer } = options.callers;
  const failures: string[] = [];
  const covered: string[] = [];
  const deletedOrders: string[] = [];
  const step = async (route: string, exchange: Exchange, status: number) => {
    covered.push(route);
    const outcome = await send(baseUrl, exchange, { timeoutMs: options.timeoutMs });
    if (outcome.status !== status) failures.push(`${describeOutcome(exchange, outcome)} (expected ${status})`);
    return outcome;
  };
  const startedAt = performance.now();
  const tag = randomUUID().slice(0, 8);
  await Promise.all([
    // The framework-only routes (and /ready, which pings the database).
    Promise.all([
      step("GET /", get("/"), 200),
      step("GET /health", get("/health"), 200),
      step("GET /ready", get("/ready"), 200),
      step("POST /echo", post("/echo", { round: tag }), 200),
      step("GET /metrics", get("/metrics"), 200),
      step("GET /openapi.json", get("/openapi.json"), 200),
      step("GET /docs", get("/docs"), 200),
    ]),
    // Users: the admin's.
    (async () => {
      await step("GET /users", get("/users?limit=5", admin), 200);
      const user = await step(
        "POST /users",
        post("/users", { email: `round-${tag}@faults.example.com`, name: "Round" }, admin),
        201,
      );
      const id = idOf(user);
      await step("GET /users/:id", get(`/users/${id}`, admin), 200);
      await step("PATCH /users/:id", patch(`/users/${id}`, { name: "Round Renamed" }, admin), 200);
      await step("DELETE /users/:id", del(`/users/${id}`, admin), 204);
    })(),
    // Products: read by anyone, written by the admin.
    (async () => {
      await step("GET /products", get("/products?limit=5&sort=priceCents"), 200);
      const product = await step(
        "POST /products",
        post("/products", { name: `Round ${tag}`, priceCents: 100, stock: 5 }, admin),
        201,
      );
      const id = idOf(product);
      await step("GET /products/:id", get(`/products/${id}`), 200);
      await step("PATCH /products/:id", patch(`/products/${id}`, { priceCents: 200 }, admin), 200);
      await step("DELETE /products/:id", del(`/products/${id}`, admin), 204);
    })(),
    // Orders: the customer's own, placed, read, cancelled (the stock comes back); deleted by the admin.
    (async () => {
      await step("GET /orders", get("/orders?limit=5&include=user", customer), 200);
      const order = await step(
        "POST /orders",
        post("/orders", { productId: orderProductId, quantity: 1 }, customer),
        201,
      );
      const id = idOf(order);
      await step("GET /orders/:id", get(`/orders/${id}?include=product`, customer), 200);
      await step("PATCH /orders/:id", patch(`/orders/${id}`, { status: "cancelled" }, customer), 200);
      const deleted = await step("DELETE /orders/:id", del(`/orders/${id}`, admin), 204);
      if (deleted.status === 204) deletedOrders.push(id);
    })(),
    // Auth.
    (async () => {
      const registered = await step(
        "POST /auth/register",
        post("/auth/register", {
          email: `round-auth-${tag}@faults.example.com`,
          name: "Round",
          password: "round-password",
        }),
        201,
      );
      let token = "none";
      try {
        token = (JSON.parse(registered.text) as { token?: string }).token ?? "none";
      } catch {}
      await step(
        "POST /auth/login",
        post("/auth/login", { email: fixtureUsers.buyer.email, password: SEED_PASSWORD }),
        200,
      );
      await step("GET /auth/me", get("/auth/me", `Bearer ${token}`), 200);
    })(),
  ]);
  return { passed: failures.length === 0, startedAt, endedAt: performance.now(), failures, deletedOrders, covered };
}
