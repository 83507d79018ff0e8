// The authorization model (docs/api.md "Authorization"), over real HTTP: every route of the route table, called by
// every kind of caller, gets the status and problem its `access` and `ownRows` state. The matrix is derived from
// `routes`: a route added to the table without a sample request here fails its first check, so none is forgotten.
// Then the rules a status alone cannot show: whose rows a customer sees, what a customer may do to an order, whose
// an order and an idempotency key are, the order of the checks, tokens across implementations, and the role.
//
// Rows this file changes are its own (customers it creates, products and orders it creates); the seeded
// fixtures are only read, so that the files after it see a fresh seed.
import { randomBytes, randomUUID } from "node:crypto";
import { fixtureOrders, fixtureProducts, fixtureUsers, MISSING_ID, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { forgeToken } from "@api-ref/harness";
import type { Response } from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import {
  findRoute,
  type Method,
  Order,
  OrderList,
  PROBLEMS,
  type ProblemKind,
  Product,
  RegisterResponse,
  type RouteSpec,
  routes,
  User,
} from "../src/index.ts";
import {
  asResponse,
  type Customer,
  checkContext,
  createCustomer,
  describeResponse,
  expectJson,
  expectProblem,
  expectStatus,
  rawRequest,
  unique,
  uniqueEmail,
} from "./support/http-asserts.ts";
import { bearerOf, contract, describeEachTarget, http, httpAs, type SeededUser, targets } from "./targets.ts";

/** RFC 6750 §3 challenges: no bearer token at all, a refused token, a known caller without the role. */
const CHALLENGE = {
  missing: "Bearer",
  invalidToken: 'Bearer error="invalid_token"',
  insufficientScope: 'Bearer error="insufficient_scope"',
} as const;

/** One request of a route, ready to send: `customer` is who may make it (on an `ownRows` route, the row's owner). */
interface Sample {
  path: string;
  body?: Record<string, unknown>;
  customer: string;
}

const label = (route: RouteSpec) => `${route.method} ${route.path}`;

/** An `authorization` header whose token was signed for `sub`, but whose payload now names another user. */
function swapSubject(authorization: string, sub: string) {
  const [header, , signature] = authorization.replace(/^Bearer /, "").split(".");
  const now = Math.floor(Date.now() / 1000);
  const payload = Buffer.from(JSON.stringify({ sub, iat: now, exp: now + 3600 })).toString("base64url");
  return `Bearer ${header}.${payload}.${signature}`;
}

/** The problem with the ids in its detail replaced, to compare two answers about different ids. */
const withoutIds = (res: Response, ...ids: string[]) => {
  let detail = String(res.body?.detail ?? "");
  for (const id of ids) detail = detail.replaceAll(id, "<id>");
  return {
    status: res.status,
    contentType: res.headers["content-type"],
    type: res.body?.type,
    title: res.body?.title,
    detail,
  };
};

describeEachTarget((target) => {
  const { itSecret } = checkContext(target);
  const asAdmin = () => httpAs(target, "admin");
  /** A customer of this file's own (registration itself is the register route's sample, and the role's check). */
  const customer = (name: string) => createCustomer(target, { name });

  const send = (method: string, path: string, authorization: string | undefined, body?: object) => {
    const req = http(target)[method.toLowerCase() as "get" | "post" | "patch" | "delete"](path);
    if (authorization !== undefined) req.set("authorization", authorization);
    return body ? req.send(body) : req;
  };

  const newProduct = async (stock = 1000) =>
    expectJson(
      await asAdmin()
        .post("/products")
        .send({ name: unique("Authz Product"), priceCents: 100, stock }),
      201,
      Product,
    );
  const placeOrder = async (customer: string, productId: string, quantity = 1) =>
    expectJson(
      await httpAs(target, { authorization: customer }).post("/orders").send({ productId, quantity }),
      201,
      Order,
    );

  /** A customer who places the orders this file makes, and one who owns nothing of theirs ("another customer"). */
  let orderer: Customer;
  let stranger: Customer;
  let product: Product;
  /** A token that was valid until its user deleted themself. */
  let deletedUsersToken: string;
  beforeAll(async () => {
    orderer = await customer("Authz Orderer");
    stranger = await customer("Authz Stranger");
    product = await newProduct();
    const gone = await customer("Authz Gone");
    expectStatus(await send("GET", "/auth/me", gone.authorization), 200);
    expectStatus(await send("DELETE", `/users/${gone.id}`, gone.authorization), 204);
    deletedUsersToken = gone.authorization;
  });

  const buyer = () => bearerOf(target, "buyer");

  /**
   * A sample request for each operation of the route table. Rows a caller may change are made fresh for each
   * check; reads use the seeded fixtures (the buyer's user and orders).
   */
  const samples: Record<string, () => Promise<Sample>> = {
    hello: async () => ({ path: "/", customer: buyer() }),
    health: async () => ({ path: "/health", customer: buyer() }),
    ready: async () => ({ path: "/ready", customer: buyer() }),
    echo: async () => ({ path: "/echo", body: { probe: 1 }, customer: buyer() }),
    metrics: async () => ({ path: "/metrics", customer: buyer() }),
    openapi: async () => ({ path: "/openapi.json", customer: buyer() }),
    docs: async () => ({ path: "/docs", customer: buyer() }),
    listUsers: async () => ({ path: "/users", customer: buyer() }),
    createUser: async () => ({ path: "/users", body: { email: uniqueEmail("authz"), name: "New" }, customer: buyer() }),
    getUser: async () => ({ path: `/users/${fixtureUsers.buyer.id}`, customer: buyer() }),
    updateUser: async () => {
      const own = await customer("Authz Renamed");
      return { path: `/users/${own.id}`, body: { name: "Renamed" }, customer: own.authorization };
    },
    deleteUser: async () => {
      const own = await customer("Authz Deleted");
      return { path: `/users/${own.id}`, customer: own.authorization };
    },
    listProducts: async () => ({ path: "/products", customer: buyer() }),
    createProduct: async () => ({
      path: "/products",
      body: { name: unique("Authz Product"), priceCents: 100, stock: 1 },
      customer: buyer(),
    }),
    getProduct: async () => ({ path: `/products/${fixtureProducts.ordered.id}`, customer: buyer() }),
    updateProduct: async () => ({
      path: `/products/${(await newProduct()).id}`,
      body: { stock: 5 },
      customer: buyer(),
    }),
    deleteProduct: async () => ({ path: `/products/${(await newProduct()).id}`, customer: buyer() }),
    listOrders: async () => ({ path: "/orders", customer: buyer() }),
    createOrder: async () => ({
      path: "/orders",
      body: { productId: product.id, quantity: 1 },
      customer: orderer.authorization,
    }),
    getOrder: async () => ({ path: `/orders/${fixtureOrders.pending.id}`, customer: buyer() }),
    updateOrder: async () => {
      const own = await customer("Authz Canceller");
      const order = await placeOrder(own.authorization, product.id);
      return { path: `/orders/${order.id}`, body: { status: "cancelled" }, customer: own.authorization };
    },
    deleteOrder: async () => ({
      path: `/orders/${(await placeOrder(orderer.authorization, product.id)).id}`,
      customer: buyer(),
    }),
    register: async () => ({
      path: "/auth/register",
      body: { email: uniqueEmail("authz"), name: "Registered", password: "long-enough-password" },
      customer: buyer(),
    }),
    login: async () => ({
      path: "/auth/login",
      body: { email: fixtureUsers.buyer.email, password: SEED_PASSWORD },
      customer: buyer(),
    }),
    me: async () => ({ path: "/auth/me", customer: buyer() }),
  };
  const sampleOf = (route: RouteSpec) => {
    const make = samples[route.operationId];
    if (!make) throw new Error(`no sample request for ${label(route)} (${route.operationId}): add one to samples`);
    return make();
  };
  /** One sample per route for the callers that must be refused, which change nothing: made once, reused. */
  const sharedSamples = new Map<string, Promise<Sample>>();
  const sharedSampleOf = (route: RouteSpec) => {
    let sample = sharedSamples.get(route.operationId);
    if (!sample) {
      sample = sampleOf(route);
      sharedSamples.set(route.operationId, sample);
    }
    return sample;
  };

  const now = () => Math.floor(Date.now() / 1000);
  /** Callers whose token must be refused: what the token is, whether forging it needs the secret, the header. */
  const refusedTokens: Array<{ caller: string; needsSecret: boolean; authorization: () => string }> = [
    {
      caller: "an expired token",
      needsSecret: true,
      authorization: () =>
        `Bearer ${forgeToken(contract.jwtSecret, fixtureUsers.admin.id, { issuedAt: now() - 7200, expiresAt: now() - 60 })}`,
    },
    {
      caller: "a tampered token (a customer's, its subject changed to the admin)",
      needsSecret: false,
      authorization: () => swapSubject(buyer(), fixtureUsers.admin.id),
    },
    {
      caller: "an unsigned token (alg: none)",
      needsSecret: false,
      authorization: () => `Bearer ${forgeToken("", fixtureUsers.admin.id, { alg: "none" })}`,
    },
    {
      caller: "a token signed with another secret",
      needsSecret: false,
      authorization: () => `Bearer ${forgeToken(randomBytes(32).toString("base64url"), fixtureUsers.admin.id)}`,
    },
    { caller: "a deleted user's token", needsSecret: false, authorization: () => deletedUsersToken },
    {
      caller: "a token whose subject is no user (a random UUID)",
      needsSecret: true,
      authorization: () => `Bearer ${forgeToken(contract.jwtSecret, randomUUID())}`,
    },
  ];

  type Expected =
    | { kind: "success" }
    | { kind: "problem"; problem: ProblemKind; challenge?: string }
    /** A 404 exactly as for an id that does not exist. */
    | { kind: "as-missing" };

  /** What the contract says a caller gets. */
  const expected = (route: RouteSpec, caller: "none" | "owner" | "other" | "admin" | "refused"): Expected => {
    if (route.access === "public") return { kind: "success" };
    if (caller === "none") return { kind: "problem", problem: "unauthorized", challenge: CHALLENGE.missing };
    if (caller === "refused") return { kind: "problem", problem: "unauthorized", challenge: CHALLENGE.invalidToken };
    if (caller === "admin") return { kind: "success" };
    if (route.access === "admin") {
      return { kind: "problem", problem: "forbidden", challenge: CHALLENGE.insufficientScope };
    }
    // A user route: a customer may call it; on another's row, as if it did not exist.
    if (caller === "other" && route.ownRows && route.path.includes(":id")) return { kind: "as-missing" };
    return { kind: "success" };
  };
  const describeExpected = (e: Expected, route: RouteSpec) =>
    e.kind === "success"
      ? `${route.success.status}`
      : e.kind === "as-missing"
        ? "404 not-found, as for a missing id"
        : `${PROBLEMS[e.problem].status} ${PROBLEMS[e.problem].type.replace("/problems/", "")}`;

  /** Admin's view of what a refused request must leave as it was: the GET at the same path, if the table has one. */
  const snapshot = async (route: RouteSpec, path: string) => {
    if (route.method === "GET" || !findRoute("GET", route.path)) return undefined;
    const res = await asAdmin().get(path);
    return { status: res.status, body: res.body };
  };

  /** Sends the sample as the caller and checks the answer against what the contract expects. */
  const check = async (route: RouteSpec, sample: Sample, authorization: string | undefined, want: Expected) => {
    const before = want.kind === "success" ? undefined : await snapshot(route, sample.path);
    const res = await send(route.method, sample.path, authorization, sample.body);
    if (want.kind === "success") {
      expectStatus(res, route.success.status);
      if (route.ownRows && route.path.includes(":id") && route.method !== "DELETE")
        expect(res.body.id, describeResponse(res)).toBe(sample.path.split("/").at(-1));
      return;
    }
    if (want.kind === "problem") {
      expectProblem(res, want.problem);
      expect(res.headers["www-authenticate"], describeResponse(res)).toBe(want.challenge);
    } else {
      expectProblem(res, "notFound");
      const id = sample.path.split("/").at(-1) ?? "";
      const missing = await send(route.method, sample.path.replace(id, MISSING_ID), authorization, sample.body);
      expect(withoutIds(res, id), "another's row and a missing one get the same answer").toEqual(
        withoutIds(missing, MISSING_ID),
      );
    }
    if (before) expect(await snapshot(route, sample.path), "a refused request changes nothing").toEqual(before);
  };

  describe.each(routes.map((route) => [label(route), route] as const))("%s", (_, route) => {
    // On an `ownRows` route the customer who owns the row; elsewhere any customer, and another one.
    const own = route.ownRows ? "its owner" : "a customer";
    const other = "another customer";
    // A public route is called as by anyone, register included: a fresh sample each time.
    const refusedSample = () => (route.access === "public" ? sampleOf(route) : sharedSampleOf(route));
    it(`no token → ${describeExpected(expected(route, "none"), route)}`, async () => {
      await check(route, await refusedSample(), undefined, expected(route, "none"));
    });
    it(`${own} → ${describeExpected(expected(route, "owner"), route)}`, async () => {
      const sample = await sampleOf(route);
      await check(route, sample, sample.customer, expected(route, "owner"));
    });
    it(`${other} → ${describeExpected(expected(route, "other"), route)}`, async () => {
      await check(route, await sampleOf(route), stranger.authorization, expected(route, "other"));
    });
    it(`the admin → ${describeExpected(expected(route, "admin"), route)}`, async () => {
      await check(route, await sampleOf(route), bearerOf(target, "admin"), expected(route, "admin"));
    });
    for (const refused of refusedTokens) {
      (refused.needsSecret ? itSecret : it)(
        `${refused.caller} → ${describeExpected(expected(route, "refused"), route)}`,
        async () => {
          await check(route, await refusedSample(), refused.authorization(), expected(route, "refused"));
        },
      );
    }
  });

  describe("a customer's orders", () => {
    /** An order of the admin's own, so that another user than the buyer has orders. */
    let adminsOrder: Order;
    beforeAll(async () => {
      adminsOrder = await placeOrder(bearerOf(target, "admin"), product.id);
    });

    it.each([
      ["GET /orders", {}],
      ["GET /orders?include=user", { include: "user" }],
      ["GET /orders?userId=<their own id>", { userId: fixtureUsers.buyer.id }],
      ["GET /orders?status=pending", { status: "pending" }],
    ] as Array<[string, Record<string, string>]>)("%s lists only their own orders", async (_, query) => {
      const list = expectJson(
        await httpAs(target, "buyer")
          .get("/orders")
          .query({ ...query, limit: 100, total: true }),
        200,
        OrderList,
      );
      expect(list.data.length).toBeGreaterThan(0);
      expect(list.data.every((o) => o.userId === fixtureUsers.buyer.id)).toBe(true);
      for (const order of list.data) if (order.user) expect(order.user.id).toBe(fixtureUsers.buyer.id);
      // The admin's view of the same filter, narrowed to the buyer: the same total.
      const all = expectJson(
        await asAdmin()
          .get("/orders")
          .query({ ...query, limit: 100, total: true, userId: fixtureUsers.buyer.id }),
        200,
        OrderList,
      );
      expect(list.total).toBe(all.total);
    });

    it("GET /orders lists the fixture orders to their owner", async () => {
      const list = expectJson(await httpAs(target, "buyer").get("/orders?limit=100"), 200, OrderList);
      const ids = list.data.map((o) => o.id);
      for (const fixture of Object.values(fixtureOrders)) expect(ids).toContain(fixture.id);
    });

    it.each([
      ["another customer's id (the buyer's)", () => fixtureUsers.buyer.id],
      ["the admin's id", () => fixtureUsers.admin.id],
    ])("GET /orders?userId=%s lists nothing to a customer: empty data, total 0", async (_, userId) => {
      const list = expectJson(
        await send("GET", `/orders?userId=${userId()}&total=true`, stranger.authorization),
        200,
        OrderList,
      );
      expect({ data: list.data, total: list.total }).toEqual({ data: [], total: 0 });
    });

    it("GET /orders lists nothing to a customer who has no orders, though others have", async () => {
      const fresh = await customer("Authz No Orders");
      const list = expectJson(await send("GET", "/orders?total=true", fresh.authorization), 200, OrderList);
      expect({ data: list.data, total: list.total }).toEqual({ data: [], total: 0 });
    });

    it("the admin lists every user's orders, and filters by any userId", async () => {
      const list = expectJson(await asAdmin().get("/orders?limit=100"), 200, OrderList);
      expect(new Set(list.data.map((o) => o.userId)).size).toBeGreaterThan(1);
      const buyers = expectJson(
        await asAdmin().get(`/orders?userId=${fixtureUsers.buyer.id}&total=true`),
        200,
        OrderList,
      );
      expect(buyers.total).toBeGreaterThanOrEqual(Object.keys(fixtureOrders).length);
      const admins = expectJson(await asAdmin().get(`/orders?userId=${fixtureUsers.admin.id}`), 200, OrderList);
      expect(admins.data.map((o) => o.id)).toContain(adminsOrder.id);
    });

    it.each(["user", "user,product"])(
      "GET /orders/:id?include=%s embeds only the customer themself",
      async (include) => {
        const order = expectJson(
          await httpAs(target, "buyer").get(`/orders/${fixtureOrders.shipped.id}?include=${include}`),
          200,
          Order,
        );
        expect(order.user?.id).toBe(fixtureUsers.buyer.id);
        expect(order.user?.role).toBe("customer");
        expectProblem(await send("GET", `/orders/${adminsOrder.id}?include=${include}`, buyer()), "notFound");
      },
    );
  });

  describe("a customer changing an order's status", () => {
    let own: Customer;
    beforeAll(async () => {
      own = await customer("Authz Status");
    });
    const orderOf = async (id: string) => expectJson(await asAdmin().get(`/orders/${id}`), 200, Order);

    it.each(["shipped", "delivered", "pending"])(
      "setting their own pending order to %s is a 403 forbidden that changes nothing",
      async (status) => {
        const order = await placeOrder(own.authorization, product.id);
        const res = await send("PATCH", `/orders/${order.id}`, own.authorization, { status });
        expectProblem(res, "forbidden");
        expect(res.headers["www-authenticate"]).toBe(CHALLENGE.insufficientScope);
        expect(await orderOf(order.id)).toEqual(order);
      },
    );

    it.each([
      ["another customer's order", async () => (await placeOrder(orderer.authorization, product.id)).id],
      ["an order that does not exist", async () => MISSING_ID],
    ])("setting %s to shipped is a 403 too (whichever order it names)", async (_, id) => {
      const res = await send("PATCH", `/orders/${await id()}`, own.authorization, { status: "shipped" });
      expectProblem(res, "forbidden");
      expect(res.headers["www-authenticate"]).toBe(CHALLENGE.insufficientScope);
    });

    it("cancelling their own pending order is a 200 that gives the stock back", async () => {
      const scarce = await newProduct(5);
      const order = await placeOrder(own.authorization, scarce.id, 2);
      const res = await send("PATCH", `/orders/${order.id}`, own.authorization, { status: "cancelled" });
      expect(expectJson(res, 200, Order)).toMatchObject({ id: order.id, userId: own.id, status: "cancelled" });
      expect(expectJson(await http(target).get(`/products/${scarce.id}`), 200, Product).stock).toBe(5);
    });

    it("cancelling another customer's pending order is a 404, and the order stays pending", async () => {
      const order = await placeOrder(orderer.authorization, product.id);
      expectProblem(await send("PATCH", `/orders/${order.id}`, own.authorization, { status: "cancelled" }), "notFound");
      expect((await orderOf(order.id)).status).toBe("pending");
    });

    it("cancelling their own shipped order is a 409 like any transition the order cannot make", async () => {
      const order = await placeOrder(own.authorization, product.id);
      expectJson(await asAdmin().patch(`/orders/${order.id}`).send({ status: "shipped" }), 200, Order);
      expectProblem(await send("PATCH", `/orders/${order.id}`, own.authorization, { status: "cancelled" }), "conflict");
    });

    it("the admin ships and delivers any order", async () => {
      const order = await placeOrder(own.authorization, product.id);
      for (const status of ["shipped", "delivered"])
        expect(expectJson(await asAdmin().patch(`/orders/${order.id}`).send({ status }), 200, Order).status).toBe(
          status,
        );
    });
  });

  describe("POST /orders: the order's user is the caller", () => {
    it.each([
      ["a customer", () => orderer],
      ["the admin", () => ({ id: fixtureUsers.admin.id, authorization: bearerOf(target, "admin") })],
    ])("%s places an order for themself", async (_, caller) => {
      const { id, authorization } = caller();
      const order = await placeOrder(authorization, product.id);
      expect(order.userId).toBe(id);
      expect((await orderOfAdmin(order.id)).userId).toBe(id);
    });

    it.each([
      ["a customer naming another user", () => orderer.authorization, () => fixtureUsers.buyer.id],
      ["a customer naming themself", () => orderer.authorization, () => orderer.id],
      ["the admin naming a customer", () => bearerOf(target, "admin"), () => fixtureUsers.buyer.id],
    ])("a body with userId (%s) is a 400 on body.userId: an unknown field", async (_, authorization, userId) => {
      const res = await send("POST", "/orders", authorization(), {
        userId: userId(),
        productId: product.id,
        quantity: 1,
      });
      expectProblem(res, "validation", ["body.userId"]);
    });

    const orderOfAdmin = async (id: string) => expectJson(await asAdmin().get(`/orders/${id}`), 200, Order);
  });

  describe("idempotency keys belong to their user", () => {
    const keyed = (authorization: string, key: string, body: object) =>
      http(target).post("/orders").set("authorization", authorization).set("idempotency-key", key).send(body);

    it("the same key and body from two users are two orders, each the caller's", async () => {
      const key = `authz-${randomUUID()}`;
      const body = { productId: product.id, quantity: 1 };
      const first = expectJson(await keyed(orderer.authorization, key, body), 201, Order);
      const second = expectJson(await keyed(stranger.authorization, key, body), 201, Order);
      expect(second.id).not.toBe(first.id);
      expect([first.userId, second.userId]).toEqual([orderer.id, stranger.id]);
    });

    it("a replay for the same user answers the same order", async () => {
      const key = `authz-${randomUUID()}`;
      const body = { productId: product.id, quantity: 1 };
      const first = expectJson(await keyed(orderer.authorization, key, body), 201, Order);
      const other = expectJson(await keyed(stranger.authorization, key, body), 201, Order);
      const replay = expectJson(await keyed(orderer.authorization, key, body), 201, Order);
      expect(replay).toEqual(first);
      expect(expectJson(await keyed(stranger.authorization, key, body), 201, Order)).toEqual(other);
    });
  });

  describe("cache-control: no-store on what carries a token or the caller", () => {
    it.each([
      [
        "POST /auth/register",
        () =>
          http(target)
            .post("/auth/register")
            .send({ email: uniqueEmail("authz"), name: "No Store", password: "long-enough-password" }),
        201,
      ],
      [
        "POST /auth/login",
        () => http(target).post("/auth/login").send({ email: fixtureUsers.buyer.email, password: SEED_PASSWORD }),
        200,
      ],
      ["GET /auth/me", () => httpAs(target, "buyer").get("/auth/me"), 200],
    ] as Array<[string, () => Promise<Response>, number]>)("%s", async (_, request, status) => {
      const res = await request();
      expectStatus(res, status);
      expect(res.headers["cache-control"], describeResponse(res)).toMatch(/(^|,\s*)no-store(\s*,|$)/);
    });
  });

  describe("the order of the checks", () => {
    it("a customer's malformed JSON on an admin route is a 403 (the role before the body)", async () => {
      const res = asResponse(
        await rawRequest(
          target,
          "POST",
          "/products",
          { "content-type": "application/json", authorization: buyer() },
          '{"name":',
        ),
        "POST",
        "/products",
      );
      expectProblem(res, "forbidden");
    });

    it.each([
      ["PATCH", "/products/not-a-uuid", { stock: 1 }],
      ["DELETE", "/orders/not-a-uuid", undefined],
      ["POST", "/users", { unknown: true }],
    ] as Array<[Method, string, object | undefined]>)(
      "a customer's invalid request %s %s is a 403, not a 400",
      async (method, path, body) => {
        expectProblem(await send(method, path, buyer(), body), "forbidden");
      },
    );

    it("without a token, a wrong content type on POST /orders is a 401, not a 415", async () => {
      const res = asResponse(
        await rawRequest(target, "POST", "/orders", { "content-type": "text/plain" }, "quantity=1"),
        "POST",
        "/orders",
      );
      expectProblem(res, "unauthorized");
      expect(res.headers["www-authenticate"]).toBe(CHALLENGE.missing);
    });

    it("without a token, an oversized body on POST /orders is a 401, not a 413", async () => {
      const body = JSON.stringify({ productId: product.id, quantity: 1, pad: "x".repeat(1024 * 1024 + 1) });
      const res = asResponse(
        await rawRequest(target, "POST", "/orders", { "content-type": "application/json" }, body),
        "POST",
        "/orders",
      );
      expectProblem(res, "unauthorized");
    });

    it("without a token, malformed JSON or an invalid id on an owner-or-admin route is a 401", async () => {
      expectProblem(
        asResponse(
          await rawRequest(
            target,
            "PATCH",
            `/orders/${fixtureOrders.pending.id}`,
            { "content-type": "application/json" },
            "{",
          ),
          "PATCH",
          "/orders/:id",
        ),
        "unauthorized",
      );
      expectProblem(await send("GET", "/users/not-a-uuid", undefined), "unauthorized");
    });

    it("an unknown path without a token is a 404 (routing first)", async () => {
      expectProblem(await send("GET", "/orders/not-a-uuid/items", undefined), "notFound");
      expectProblem(await send("POST", "/admin", undefined, {}), "notFound");
    });

    it.each([
      ["PUT", `/users/${fixtureUsers.buyer.id}`],
      ["POST", `/orders/${fixtureOrders.pending.id}`],
      ["PUT", "/auth/me"],
      ["DELETE", "/users"],
    ])("%s %s without a token is a 405 (routing first)", async (method, path) => {
      expectProblem(asResponse(await rawRequest(target, method, path), method, path), "methodNotAllowed");
    });
  });

  describe("tokens across implementations", () => {
    // Every target holds the same seeded users: a token one issued at login is the user's on every other.
    const login = async (email: string) => {
      const res = await http(target).post("/auth/login").send({ email, password: SEED_PASSWORD });
      expectStatus(res, 200);
      return `Bearer ${res.body.token as string}`;
    };
    let admin: string;
    let customer: string;
    beforeAll(async () => {
      admin = await login(fixtureUsers.admin.email);
      customer = await login(fixtureUsers.buyer.email);
    });
    for (const other of targets) {
      it(`a token ${target.name} issued at login works on ${other.name}`, async () => {
        const on = (authorization: string) => httpAs(other, { authorization });
        expect(expectJson(await on(admin).get("/auth/me"), 200, User)).toMatchObject({
          id: fixtureUsers.admin.id,
          role: "admin",
        });
        expectStatus(await on(admin).get("/users?limit=1"), 200);
        const orders = expectJson(await on(customer).get("/orders"), 200, OrderList);
        expect(orders.data.every((o) => o.userId === fixtureUsers.buyer.id)).toBe(true);
        expectProblem(await on(customer).get("/users"), "forbidden");
      });
    }
  });

  describe("the role", () => {
    it.each([
      ["the admin", "admin" as SeededUser],
      ["a customer", "buyer" as SeededUser],
    ])("GET /auth/me tells %s their role", async (_, who) => {
      const me = expectJson(await httpAs(target, who).get("/auth/me"), 200, User);
      expect(me).toMatchObject({ id: fixtureUsers[who].id, role: fixtureUsers[who].role });
    });

    it.each([
      ["a customer on themself", () => stranger.authorization, () => stranger.id],
      ["the admin on a customer", () => bearerOf(target, "admin"), () => stranger.id],
      ["the admin on themself", () => bearerOf(target, "admin"), () => fixtureUsers.admin.id],
    ])("PATCH /users/:id with role is a 400 on body.role (%s)", async (_, authorization, id) => {
      for (const role of ["admin", "customer"]) {
        const body = { name: "Promoted", role };
        expectProblem(await send("PATCH", `/users/${id()}`, authorization(), body), "validation", ["body.role"]);
      }
      expect(expectJson(await asAdmin().get(`/users/${id()}`), 200, User).role).toBe(
        id() === fixtureUsers.admin.id ? "admin" : "customer",
      );
    });

    it("POST /users creates a customer, and refuses role as an unknown field", async () => {
      const created = expectJson(
        await asAdmin()
          .post("/users")
          .send({ email: uniqueEmail("authz"), name: "Made" }),
        201,
        User,
      );
      expect(created.role).toBe("customer");
      expectProblem(
        await asAdmin()
          .post("/users")
          .send({ email: uniqueEmail("authz"), name: "Made", role: "admin" }),
        "validation",
        ["body.role"],
      );
    });

    it("POST /auth/register creates a customer, and refuses role as an unknown field", async () => {
      const res = await http(target)
        .post("/auth/register")
        .send({ email: uniqueEmail("authz"), name: "Self", password: "long-enough-password" });
      expect(expectJson(res, 201, RegisterResponse).user.role).toBe("customer");
      expectProblem(
        await http(target)
          .post("/auth/register")
          .send({ email: uniqueEmail("authz"), name: "Self", password: "long-enough-password", role: "admin" }),
        "validation",
        ["body.role"],
      );
    });
  });
});
