// The scenarios: what each sends, what a correct answer to each request is, and which baseline it is compared to;
// verification and load read the same definitions (types, request builders, crud-mix checks: the files beside it).
import { randomUUID } from "node:crypto";
import { EchoResponse, Health, LoginResponse, RegisterResponse } from "@api-ref/contract";
import { fixtureUsers } from "@api-ref/db/fixtures";
import { bearerCache } from "@api-ref/harness";
import { crudMixSteps } from "./crud-mix.ts";
import { cursorWalkSteps, deepPageRequests } from "./order-pages.ts";
import {
  createOrder,
  deepEqual,
  echoDocument,
  firstProblem,
  getJson,
  getProduct,
  getUser,
  ordersQuery,
  POOL_SIZE,
  productsQuery,
  sendJson,
  signedIn,
  times,
} from "./requests.ts";
import type { BenchRequest, Plan, Scenario, ScenarioName, Step } from "./types.ts";

export { createRng } from "@api-ref/harness";
export { echoDocument } from "./requests.ts";
export * from "./types.ts";

/** The connection counts a scenario really runs at: the requested ones, capped by its maxConnections. */
export function connectionsFor(scenario: Pick<Scenario, "maxConnections">, requested: readonly number[]): number[] {
  const cap = scenario.maxConnections ?? Number.POSITIVE_INFINITY;
  return [...new Set(requested.map((c) => Math.min(c, cap)))];
}

// ---- the scenarios ------------------------------------------------------------------------------------------

const pool = (make: () => BenchRequest): Plan => ({ kind: "pool", requests: times(POOL_SIZE, make) });

/** The scrypt routes' connections: four in flight keep two hashes running (packages/db's bound) and two queued. */
const SCRYPT_CONNECTIONS = 4;
/** The scrypt routes' answers verified per server: every one is alike but for its user, and costs a hash. */
const SCRYPT_VERIFIED = 4;

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
      requests: [getJson("/health", Health)],
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
        return sendJson("POST", "/echo", doc, {
          status: 200,
          schema: EchoResponse,
          check: (body) => {
            const { txnId: _txnId, ...rest } = body as Record<string, unknown>;
            return deepEqual(rest, doc) ? undefined : "the echoed body differs from the request";
          },
        });
      }),
    }),
  },
  "user-by-id": {
    name: "user-by-id",
    title: "GET /users/:id",
    kind: "database",
    // A customer reading themself: the token verified, the role read, the row fetched with ownership in the query.
    caller: "customer",
    plan: (pools, rng) => {
      const bearer = bearerCache(pools.jwtSecret);
      return pool(() => {
        const id = rng.pick(pools.userIds);
        return signedIn(getUser(id), bearer(id));
      });
    },
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
    // Pages through every order, as the back office does: the admin (a customer's own list is one short page).
    caller: "admin",
    plan: (pools, rng) => {
      const admin = bearerCache(pools.jwtSecret)(fixtureUsers.admin.id);
      return pool(() => signedIn(ordersQuery(rng, pools), admin));
    },
  },
  "orders-cursor-walk": {
    name: "orders-cursor-walk",
    title: "GET /orders?include=user,product&cursor=… (a walk)",
    kind: "database",
    // Each connection follows nextCursor from page to page (the next request is built from the last answer), from
    // entries spread over the whole list: what a page costs by cursor, at every depth.
    caller: "admin",
    sequential: true,
    plan: (pools) => ({ kind: "sequence", steps: cursorWalkSteps(pools) }),
  },
  "orders-deep-page": {
    name: "orders-deep-page",
    title: "GET /orders?include=user,product&page=N (the last pages)",
    kind: "database",
    // The same page as the walk's, found by OFFSET: every order before it is read and discarded.
    caller: "admin",
    growsWithData: true,
    plan: (pools, rng) => ({ kind: "pool", requests: deepPageRequests(pools, rng) }),
  },
  "order-create": {
    name: "order-create",
    title: "POST /orders",
    kind: "database",
    writes: true,
    // Seeded customers, each placing an order of their own.
    caller: "customer",
    plan: (pools, rng) => {
      const bearer = bearerCache(pools.jwtSecret);
      return pool(() => {
        const customer = rng.pick(pools.userIds);
        const order = createOrder(customer, rng.pick(pools.orderProductIds), rng.int(1, 5));
        return signedIn(order, bearer(customer));
      });
    },
  },
  "auth-login": {
    name: "auth-login",
    title: "POST /auth/login (scrypt)",
    kind: "database",
    minDurationS: 3,
    maxConnections: SCRYPT_CONNECTIONS,
    maxVerifySample: SCRYPT_VERIFIED,
    plan: (pools, rng) =>
      pool(() => {
        const login = rng.pick(pools.logins);
        return sendJson(
          "POST",
          "/auth/login",
          { email: login.email, password: pools.password },
          {
            status: 200,
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
        );
      }),
  },
  "auth-register": {
    name: "auth-register",
    title: "POST /auth/register (fresh e-mail, scrypt)",
    kind: "database",
    writes: true,
    // Every request must carry an e-mail never registered before, so requests are built one at a time (a
    // one-step sequence), not drawn from a prebuilt pool; like auth-login, each costs a scrypt hash.
    sequential: true,
    minDurationS: 3,
    maxConnections: SCRYPT_CONNECTIONS,
    maxVerifySample: SCRYPT_VERIFIED,
    plan: (pools) => ({ kind: "sequence", steps: [registerStep(pools.password)] }),
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
    caller: "customer and admin",
    sequential: true,
    plan: (pools) => ({ kind: "sequence", steps: crudMixSteps(pools) }),
  },
};

/** POST /auth/register with an e-mail of its own: the answer must be the new user (same e-mail and name) and a token for it. */
export function registerStep(password: string): Step {
  return {
    label: "register",
    build: () => {
      const email = `bench-${randomUUID()}@register.example.com`;
      const name = "Bench Register";
      return sendJson(
        "POST",
        "/auth/register",
        { email, name, password },
        { status: 201, schema: RegisterResponse, check: (body) => checkRegistered(body, email, name) },
      );
    },
  };
}

/** What is wrong with a /auth/register answer for `email` and `name`, or undefined. */
export function checkRegistered(body: unknown, email: string, name: string): string | undefined {
  const { user, token } = body as { user: { id: string; email: string; name: string }; token: string };
  if (user.email !== email) return `user.email is ${JSON.stringify(user.email)}, expected ${email}`;
  if (user.name !== name) return `user.name is ${JSON.stringify(user.name)}, expected ${name}`;
  try {
    const payload = token.split(".")[1] ?? "";
    const sub = (JSON.parse(Buffer.from(payload, "base64url").toString()) as { sub?: unknown }).sub;
    return sub === user.id ? undefined : "the token's sub is not the new user's id";
  } catch {
    return "the token is not a JWT";
  }
}

/** Order of execution: read-only scenarios first, so that writes cannot change what the reads measure. */
export function executionOrder(names: readonly ScenarioName[]): ScenarioName[] {
  return [...names].sort((a, b) => Number(scenarios[a].writes ?? false) - Number(scenarios[b].writes ?? false));
}
