// Security headers (docs/api.md "Security headers"), over real HTTP: every response carries
// `x-content-type-options: nosniff` and `x-frame-options: DENY`, and the content-security-policy of what it is (the
// API's, or the /docs page's). Checked on every route's success (derived from the route table: a route added
// without a sample request here fails its first check) and on every kind of error, including those a framework
// answers by itself (404, 405, 413, 415, malformed JSON), where a header set only by route handlers goes missing.
//
// Rows this file changes are its own (users, products and orders it creates); the seeded fixtures are only read.
import { fixtureOrders, fixtureProducts, fixtureUsers, MISSING_ID, SEED_PASSWORD } from "@api-ref/db/fixtures";
import type { Response } from "supertest";
import { describe, expect, it } from "vitest";
import { PROBLEMS, type ProblemKind, type RouteSpec, routes } from "../src/index.ts";
import { jsonOfSize, MiB } from "./support/error-cases.ts";
import {
  asResponse,
  checkContext,
  createOrder,
  createProduct,
  createUser,
  describeResponse,
  expectStatus,
  rawRequest,
  unique,
  uniqueEmail,
} from "./support/http-asserts.ts";
import { expectSecurityHeaders, type PolicyOf } from "./support/security-asserts.ts";
import { bearerOf, describeEachTarget } from "./targets.ts";

const label = (route: RouteSpec) => `${route.method} ${route.path}`;

describeEachTarget((target) => {
  const { api, anon, as } = checkContext(target);
  const customer = () => bearerOf(target, "buyer");
  const admin = () => bearerOf(target, "admin");
  /** A request sent exactly as given over a plain socket (bodies a client library would fix, or cannot send). */
  const raw = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    asResponse(await rawRequest(target, method, path, headers, body), method, path);

  /**
   * A request of each operation that succeeds: public routes sent with no token, the others as the admin (who may
   * call every one). Rows a request changes or deletes are made for it.
   */
  const successes: Record<string, () => Promise<Response>> = {
    hello: () => anon().get("/"),
    health: () => anon().get("/health"),
    ready: () => anon().get("/ready"),
    echo: () => anon().post("/echo").send({ probe: 1 }),
    metrics: () => anon().get("/metrics"),
    openapi: () => anon().get("/openapi.json"),
    docs: () => anon().get("/docs"),
    listUsers: () => api().get("/users"),
    createUser: () =>
      api()
        .post("/users")
        .send({ email: uniqueEmail("security"), name: "Security User" }),
    getUser: () => api().get(`/users/${fixtureUsers.buyer.id}`),
    updateUser: async () =>
      api()
        .patch(`/users/${(await createUser(target)).id}`)
        .send({ name: "Security Renamed" }),
    deleteUser: async () => api().delete(`/users/${(await createUser(target)).id}`),
    listProducts: () => anon().get("/products"),
    createProduct: () =>
      api()
        .post("/products")
        .send({ name: unique("Security Product"), priceCents: 100, stock: 1 }),
    getProduct: () => anon().get(`/products/${fixtureProducts.ordered.id}`),
    updateProduct: async () =>
      api()
        .patch(`/products/${(await createProduct(target)).id}`)
        .send({ stock: 5 }),
    deleteProduct: async () => api().delete(`/products/${(await createProduct(target)).id}`),
    listOrders: () => api().get("/orders"),
    createOrder: async () =>
      api()
        .post("/orders")
        .send({ productId: (await createProduct(target)).id, quantity: 1 }),
    getOrder: () => api().get(`/orders/${fixtureOrders.pending.id}`),
    updateOrder: async () => {
      const order = await createOrder(target, "admin", { productId: (await createProduct(target)).id, quantity: 1 });
      return api().patch(`/orders/${order.id}`).send({ status: "cancelled" });
    },
    deleteOrder: async () => {
      const order = await createOrder(target, "admin", { productId: (await createProduct(target)).id, quantity: 1 });
      return api().delete(`/orders/${order.id}`);
    },
    register: () =>
      anon()
        .post("/auth/register")
        .send({ email: uniqueEmail("security"), name: "Security Registered", password: "long-enough-password" }),
    login: () => anon().post("/auth/login").send({ email: fixtureUsers.buyer.email, password: SEED_PASSWORD }),
    me: () => api().get("/auth/me"),
  };

  describe("every route's success", () => {
    it.each(routes.map((route) => [label(route), route] as const))(
      "%s carries the security headers and its content-security-policy",
      async (_, route) => {
        const send = successes[route.operationId];
        if (!send) throw new Error(`no successful request for ${label(route)} (${route.operationId}): add one`);
        const res = await send();
        expectStatus(res, route.success.status);
        expectSecurityHeaders(res, route.path === "/docs" ? "docs" : "api");
      },
    );
  });

  // HEAD is answered from the GET route (by the framework, often without the route's own code).
  it.each([
    ["HEAD /health", "/health", "api"],
    ["HEAD /docs", "/docs", "docs"],
  ] as Array<[string, string, PolicyOf]>)("%s carries the security headers of its GET", async (_, path, policy) => {
    const res = await anon().head(path);
    expectStatus(res, 200);
    expectSecurityHeaders(res, policy);
  });

  /** An error of each kind, and where it comes from; `policy` is the API's unless said. */
  const errors: Array<[name: string, kind: ProblemKind, send: () => Promise<Response>, policy?: PolicyOf]> = [
    ["a 401 without a token (GET /auth/me)", "unauthorized", () => anon().get("/auth/me")],
    [
      "a 401 for a refused token on an admin route (GET /users)",
      "unauthorized",
      () => anon().get("/users").set("authorization", "Bearer a.b.c"),
    ],
    [
      "a 401 for a wrong password (POST /auth/login)",
      "unauthorized",
      () =>
        anon()
          .post("/auth/login")
          .send({ email: fixtureUsers.buyer.email, password: `${SEED_PASSWORD}x` }),
    ],
    ["a 403 for a customer on an admin route (GET /users)", "forbidden", () => as("buyer").get("/users")],
    [
      "a 403 for a customer on an admin route with a malformed body (POST /products)",
      "forbidden",
      () => raw("POST", "/products", { "content-type": "application/json", authorization: customer() }, '{"name":'),
    ],
    [
      "a 403 from the handler: a customer shipping their own order (PATCH /orders/:id)",
      "forbidden",
      () => as("buyer").patch(`/orders/${fixtureOrders.pending.id}`).send({ status: "shipped" }),
    ],
    ["a 404 on an unknown path", "notFound", () => anon().get("/no-such-route")],
    ["a 404 on an unknown path with a JSON body", "notFound", () => anon().post("/no-such-route").send({ a: 1 })],
    ["a 404 on an undecodable unknown path", "notFound", () => raw("GET", "/%zz")],
    ["a 404 under /docs/ (not the page)", "notFound", () => anon().get("/docs/")],
    ["a 404 for an unknown id (GET /products/:id)", "notFound", () => anon().get(`/products/${MISSING_ID}`)],
    ["a 405 (PUT /users)", "methodNotAllowed", () => api().put("/users")],
    ["a 405 (OPTIONS /health)", "methodNotAllowed", () => anon().options("/health")],
    ["a 405 on a method no route serves (PROPFIND /users)", "methodNotAllowed", () => raw("PROPFIND", "/users")],
    ["a 405 at /docs (PUT /docs)", "methodNotAllowed", () => anon().put("/docs"), "unchecked"],
    ["a 400 on a query (GET /users?limit=0)", "validation", () => api().get("/users?limit=0")],
    ["a 400 on a path id (GET /users/not-a-uuid)", "validation", () => api().get("/users/not-a-uuid")],
    ["a 400 on a body (POST /products {})", "validation", () => api().post("/products").send({})],
    [
      "a 400 malformed-json (POST /echo)",
      "malformedJson",
      () => raw("POST", "/echo", { "content-type": "application/json" }, '{"a":'),
    ],
    [
      "a 415 (POST /products as text/plain)",
      "unsupportedMediaType",
      () => raw("POST", "/products", { "content-type": "text/plain", authorization: admin() }, '{"name":"x"}'),
    ],
    [
      "a 413 (POST /echo with 1 MiB and one byte)",
      "payloadTooLarge",
      () => raw("POST", "/echo", { "content-type": "application/json" }, jsonOfSize(MiB + 1)),
    ],
    [
      "a 409 (DELETE a product orders reference)",
      "conflict",
      () => api().delete(`/products/${fixtureProducts.ordered.id}`),
    ],
    [
      "a 422 (POST /orders for an unknown product)",
      "unprocessable",
      () => api().post("/orders").send({ productId: MISSING_ID, quantity: 1 }),
    ],
  ];

  describe("errors", () => {
    it.each(errors)("%s carries the security headers", async (_, kind, send, policy = "api") => {
      const res = await send();
      expectStatus(res, PROBLEMS[kind].status);
      expect(res.body?.type, describeResponse(res)).toBe(PROBLEMS[kind].type);
      expectSecurityHeaders(res, policy);
    });
  });
});
