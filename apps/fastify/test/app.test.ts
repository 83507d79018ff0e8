// The app as Fastify teaches testing it: `buildApp()` then `fastify.inject()` (Light my Request: no socket), in
// each schema mode, on the fake data access from @api-ref/data-access/testing passed in place of a database.
import { Writable } from "node:stream";
import { API_CONTENT_SECURITY_POLICY, docsContentSecurityPolicy, SECURITY_HEADERS } from "@api-ref/contract";
import {
  createFakeDataAccess,
  expectProblem,
  FAKE_ADMIN,
  FAKE_AUTH,
  FAKE_ORDER,
  FAKE_PRODUCT,
  FAKE_USER,
  MISSING_ID,
} from "@api-ref/data-access/testing";
import { AUTH_RATE_WINDOW_SECONDS } from "@api-ref/server";
import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import Fastify, { type LightMyRequestResponse } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { app as api, buildApp, serverOptions } from "../src/app.ts";
import { SCHEMA_MODES } from "../src/modes/index.ts";

const config = {
  databaseUrl: "postgres://unused",
  jwtSecret: "x".repeat(32),
  poolSize: 1,
  logLevel: "silent" as const,
  // Never reached here; the rate-limit tests build their app with a small one.
  authRateLimit: 1_000_000,
};
const problemFrom = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  contentType: res.headers["content-type"] as string,
  body: res.json(),
});
const asCustomer = { authorization: FAKE_AUTH.customer };
const asAdmin = { authorization: FAKE_AUTH.admin };

describe.each(SCHEMA_MODES)("in %s mode", (mode) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let closed: number;
  beforeEach(async () => {
    closed = 0;
    app = await buildApp({ config, mode, dataAccess: createFakeDataAccess({ close: async () => void closed++ }) });
  });
  afterEach(() => app.close());

  it("GET /users lists the page the data access returned, serialized by the route's response schema", async () => {
    const res = await app.inject({
      method: "GET",
      url: "/users",
      query: { limit: "1", total: "true" },
      headers: asAdmin,
    });
    expect(res.statusCode).toBe(200);
    const first = res.json();
    expect(first).toEqual({ data: [FAKE_USER], page: 1, limit: 1, total: 2, pages: 2, nextCursor: expect.any(String) });
    const next = await app.inject({
      method: "GET",
      url: "/users",
      query: { cursor: first.nextCursor },
      headers: asAdmin,
    });
    expect(next.json()).toEqual({
      data: [FAKE_ADMIN],
      page: null,
      limit: 20,
      total: null,
      pages: null,
      nextCursor: null,
    });
  });

  it("a product with a negative price is the contract's 400 from the mode's validator", async () => {
    const res = await app
      .inject()
      .post("/products")
      .headers(asAdmin)
      .body({ name: "Lamp", priceCents: -1, stock: 1 })
      .end();
    expectProblem(problemFrom(res), "validation", ["body.priceCents"]);
  });

  it("the data access's not-found and the not-found handler answer the same problem", async () => {
    expectProblem(problemFrom(await app.inject({ url: `/products/${MISSING_ID}` })), "notFound");
    expectProblem(problemFrom(await app.inject({ method: "POST", url: "/users/" })), "notFound");
  });

  it("app.close() runs the onClose hook that closes the data access", async () => {
    await app.ready();
    await app.close();
    expect(closed).toBe(1);
  });

  describe("authorization (the onRequest hooks of plugins/app/auth.ts)", () => {
    interface Call {
      method: "GET" | "POST" | "PATCH" | "DELETE";
      url: string;
      /** A JSON body (an object), or the bytes of one sent as `application/json` (a string). */
      body?: object | string;
    }
    const send = ({ method, url, body }: Call, headers: Record<string, string> = {}) =>
      app.inject({
        method,
        url,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        payload: typeof body === "string" ? body : body === undefined ? undefined : JSON.stringify(body),
      });
    const newOrder = { method: "POST", url: "/orders", body: { productId: FAKE_PRODUCT.id, quantity: 1 } } as const;
    const newProduct = { method: "POST", url: "/products", body: { name: "Desk", priceCents: 100, stock: 1 } } as const;
    const signedInRoutes: Call[] = [
      { method: "GET", url: "/auth/me" },
      { method: "GET", url: "/orders" },
      newOrder,
      { method: "GET", url: `/users/${FAKE_USER.id}` },
    ];
    const adminRoutes: Call[] = [
      { method: "GET", url: "/users" },
      newProduct,
      { method: "DELETE", url: `/orders/${FAKE_ORDER.id}` },
    ];

    it.each([...signedInRoutes, ...adminRoutes])(
      "$method $url without a token is a 401 challenging for a Bearer token",
      async (route) => {
        const res = await send(route);
        expectProblem(problemFrom(res), "unauthorized");
        expect(res.headers["www-authenticate"]).toBe("Bearer");
      },
    );

    it("a token the data access does not know is a 401 with `invalid_token`", async () => {
      const res = await send({ method: "GET", url: "/auth/me" }, { authorization: "Bearer not.a.token" });
      expectProblem(problemFrom(res), "unauthorized");
      expect(res.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
    });

    it.each(adminRoutes)("$method $url with a customer's token is a 403 forbidden", async (route) => {
      const res = await send(route, asCustomer);
      expectProblem(problemFrom(res), "forbidden");
      expect(res.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope"');
    });

    it.each([
      [200, adminRoutes[0]],
      [201, adminRoutes[1]],
      [204, adminRoutes[2]],
    ] as const)("an admin gets %i from %o", async (status, route) => {
      expect((await send(route as Call, asAdmin)).statusCode).toBe(status);
    });

    it("a customer reads their own user, and another user's is a 404 as if it did not exist", async () => {
      expect((await send({ method: "GET", url: `/users/${FAKE_USER.id}` }, asCustomer)).json()).toEqual(FAKE_USER);
      const another = await send({ method: "GET", url: `/users/${FAKE_ADMIN.id}` }, asCustomer);
      expectProblem(problemFrom(another), "notFound");
      expect((await send({ method: "GET", url: `/users/${FAKE_USER.id}` }, asAdmin)).statusCode).toBe(200);
    });

    it("a customer may cancel their own order, and set no other status (the data access's 403)", async () => {
      const patch = (status: string) =>
        send({ method: "PATCH", url: `/orders/${FAKE_ORDER.id}`, body: { status } }, asCustomer);
      expectProblem(problemFrom(await patch("shipped")), "forbidden");
      expect((await patch("cancelled")).json()).toMatchObject({ id: FAKE_ORDER.id, status: "cancelled" });
    });

    it("POST /orders places the order as the caller; a userId in the body is an unknown field", async () => {
      const res = await send(newOrder, asCustomer);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ userId: FAKE_USER.id, productId: FAKE_PRODUCT.id, quantity: 1 });
      const withUserId = await send({ ...newOrder, body: { ...newOrder.body, userId: FAKE_ADMIN.id } }, asCustomer);
      expectProblem(problemFrom(withUserId), "validation", ["body.userId"]);
    });

    describe("authentication and the role come before anything about the request itself", () => {
      it.each([
        ["a malformed JSON body", { ...newProduct, body: '{"name":' }],
        ["an invalid body", { method: "PATCH", url: `/products/${FAKE_PRODUCT.id}`, body: {} }],
        ["an id that is no UUID", { method: "DELETE", url: "/products/not-a-uuid" }],
      ] as const)("a customer's request with %s on an admin route is a 403", async (_, route) => {
        expectProblem(problemFrom(await send(route, asCustomer)), "forbidden");
      });

      it("no token and a body that is not JSON on POST /orders is a 401, not a 415", async () => {
        const res = await app.inject({
          method: "POST",
          url: "/orders",
          headers: { "content-type": "text/plain" },
          payload: "productId=1",
        });
        expectProblem(problemFrom(res), "unauthorized");
      });
    });

    it("register, login and /auth/me answer `cache-control: no-store`", async () => {
      const token = { token: "a.b.c", tokenType: "Bearer", expiresIn: 3600 } as const;
      await app.close();
      app = await buildApp({ config, mode, dataAccess: createFakeDataAccess({ auth: { login: async () => token } }) });
      const answers = [
        await send({
          method: "POST",
          url: "/auth/register",
          body: { email: "new@example.com", name: "New", password: "a-long-password" },
        }),
        await send({
          method: "POST",
          url: "/auth/login",
          body: { email: "ada@example.com", password: "a-long-password" },
        }),
        await send({ method: "GET", url: "/auth/me" }, asCustomer),
      ];
      expect(answers.map((res) => [res.statusCode, res.headers["cache-control"]])).toEqual([
        [201, "no-store"],
        [200, "no-store"],
        [200, "no-store"],
      ]);
      expect(answers[2]?.json()).toEqual(FAKE_USER);
    });
  });

  describe("the rate limit on register and login (plugins/external/rate-limit.ts)", () => {
    const LIMIT = 2;
    beforeEach(async () => {
      await app.close();
      app = await buildApp({ config: { ...config, authRateLimit: LIMIT }, mode, dataAccess: createFakeDataAccess() });
    });
    const login = (headers: Record<string, string> = { "content-type": "application/json" }, payload = "{}") =>
      app.inject({ method: "POST", url: "/auth/login", headers, payload });
    const register = () => app.inject({ method: "POST", url: "/auth/register", payload: {} });
    /** The contract's 429, with `retry-after` in whole seconds within the window. */
    const expectLimited = (res: LightMyRequestResponse) => {
      expectProblem(problemFrom(res), "tooManyRequests");
      expect(res.headers["retry-after"]).toMatch(/^\d+$/);
      expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(AUTH_RATE_WINDOW_SECONDS);
    };

    it(`answers the first ${LIMIT} logins as usual, whatever their outcome, and the next with the 429`, async () => {
      expect([(await login()).statusCode, (await login()).statusCode]).toEqual([400, 400]);
      const limited = await login();
      expectLimited(limited);
      expect(limited.headers["x-content-type-options"]).toBe("nosniff");
    });

    it("past the limit, nothing about the request is read: a text/plain body is a 429, not a 415", async () => {
      for (let i = 0; i < LIMIT; i++) await login();
      expectLimited(await login({ "content-type": "text/plain" }, "{}"));
      // Routing still comes first: another method is the 405.
      expectProblem(problemFrom(await app.inject({ method: "GET", url: "/auth/login" })), "methodNotAllowed");
    });

    it("counts each route apart, and limits no other", async () => {
      for (let i = 0; i < LIMIT; i++) await login();
      expectLimited(await login());
      for (let i = 0; i < LIMIT; i++)
        expectProblem(problemFrom(await register()), "validation", ["body.email", "body.name", "body.password"]);
      expectLimited(await register());
      for (let i = 0; i <= LIMIT; i++)
        expect((await app.inject({ url: "/auth/me", headers: asCustomer })).statusCode).toBe(200);
    });
  });

  describe("the security headers (plugins/external/helmet.ts)", () => {
    const apiHeaders = { ...SECURITY_HEADERS, "content-security-policy": API_CONTENT_SECURITY_POLICY };
    const securityHeadersOf = (res: LightMyRequestResponse) =>
      Object.fromEntries(Object.keys(apiHeaders).map((name) => [name, res.headers[name]]));

    it.each([
      ["a JSON answer", { url: "/health" }],
      ["a problem of a route (401)", { url: "/auth/me" }],
      ["a problem of the not-found handler (404)", { url: "/no-such-route" }],
      ["a 405", { method: "PUT" as const, url: "/users" }],
      ["a 415", { method: "POST" as const, url: "/echo", headers: { "content-type": "text/plain" }, payload: "a" }],
      ["a path the router cannot decode (frameworkErrors)", { url: "/users/%zz" }],
    ])("%s carries them, with the API's content-security-policy", async (_, request) => {
      expect(securityHeadersOf(await app.inject(request))).toEqual(apiHeaders);
    });

    it.each(["GET", "HEAD"] as const)("%s /docs carries them, with the page's own policy", async (method) => {
      const res = await app.inject({ method, url: "/docs" });
      expect(res.statusCode).toBe(200);
      expect(securityHeadersOf(res)).toEqual({ ...apiHeaders, "content-security-policy": docsContentSecurityPolicy() });
    });
  });

  it("no log line carries the authorization or cookie header, or a password, at any level", async () => {
    // buildApp's logger is Fastify's pino with Fastify's own serializers, whose `req` is method, url, host and
    // remote address: no header. The same app, logging everything to a buffer.
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logged = Fastify({
      ...serverOptions,
      logger: { level: "trace", stream },
    }).withTypeProvider<ZodTypeProvider>();
    await logged.register(api, { config, mode, dataAccess: createFakeDataAccess() });
    const secret = { authorization: FAKE_AUTH.admin, cookie: "session=cookie-secret" };
    await logged.inject({ url: "/users", headers: secret });
    await logged.inject({ url: "/auth/me", headers: { ...secret, authorization: "Bearer forged.token.value" } });
    await logged.inject({
      method: "POST",
      url: "/auth/login",
      headers: secret,
      body: { email: "ada@example.com", password: "password-secret" },
    });
    await logged.close();
    expect(lines.length).toBeGreaterThan(0);
    for (const text of ["fake-admin-token", "forged.token.value", "cookie-secret", "password-secret"]) {
      expect(lines.filter((line) => line.includes(text))).toEqual([]);
    }
  });
});
