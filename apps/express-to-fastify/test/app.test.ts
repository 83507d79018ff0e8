// The template on the fake data access of @api-ref/data-access/testing, passed to `buildApp()` as apps/fastify's tests
// pass it: one data access serves both worlds, the routes moved to Fastify and the Express routers mounted through
// @fastify/express. Over a real socket (`listen({ port: 0 })`), not `fastify.inject()`: Express swaps the
// prototypes of the raw request and response, and light-my-request's fake ones then lose every body, the Fastify
// routes' included, since Express sees each request first (fastify/fastify-express#54).
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { API_CONTENT_SECURITY_POLICY, docsContentSecurityPolicy, SECURITY_HEADERS } from "@api-ref/contract";
import { sendTo } from "@api-ref/contract/mixed-state";
import {
  createFakeDataAccess,
  expectProblem,
  FAKE_AUTH,
  FAKE_ORDER,
  FAKE_PRODUCT,
  FAKE_USER,
  MISSING_ID,
} from "@api-ref/data-access/testing";
import { AUTH_RATE_WINDOW_SECONDS } from "@api-ref/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../src/app.ts";

const config = {
  databaseUrl: "postgres://unused",
  jwtSecret: "x".repeat(32),
  poolSize: 1,
  logLevel: "silent" as const,
  // Never reached here; the rate-limit tests build an app of their own with a small one.
  authRateLimit: 1_000_000,
};
const problemFrom = async (res: Response) => ({
  status: res.status,
  contentType: res.headers.get("content-type") ?? undefined,
  body: await res.json(),
});

const dataAccess = createFakeDataAccess();
const close = vi.spyOn(dataAccess, "close");
let app: Awaited<ReturnType<typeof buildApp>>;
let base: string;
beforeAll(async () => {
  app = await buildApp({ config, dataAccess });
  await app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app?.close());

const send = sendTo(() => base);
const asCustomer = { authorization: FAKE_AUTH.customer };
const asAdmin = { authorization: FAKE_AUTH.admin };

describe("express-to-fastify on a fake data access", () => {
  it.each([
    ["Express (not moved yet)", `/users/${FAKE_USER.id}`, FAKE_USER],
    ["Fastify (moved)", `/products/${FAKE_PRODUCT.id}`, FAKE_PRODUCT],
  ])("a route %s answers from the one data access", async (_, path, expected) => {
    const res = await send("GET", path, undefined, asCustomer);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expected);
  });

  it.each([
    ["Express", "/users", { email: "not-an-address", name: "A" }, ["body.email"]],
    ["Fastify", "/products", { name: "Lamp", priceCents: -1, stock: 1 }, ["body.priceCents"]],
  ])("a bad body on a route %s serves is the contract's 400", async (_, path, body, paths) => {
    expectProblem(await problemFrom(await send("POST", path, JSON.stringify(body), asAdmin)), "validation", paths);
  });

  it.each([`/users/${MISSING_ID}`, `/products/${MISSING_ID}`])(
    "GET %s: the data access's not-found is the same problem in both worlds",
    async (path) => {
      expectProblem(await problemFrom(await send("GET", path, undefined, asAdmin)), "notFound");
    },
  );

  it("the request-id hook, Fastify's, answers for an Express route too", async () => {
    const res = await send("GET", `/users/${FAKE_USER.id}`, undefined, { ...asCustomer, "x-request-id": "abc-123" });
    expect(res.headers.get("x-request-id")).toBe("abc-123");
  });

  describe("one token, both halves: Express's authenticate middleware and Fastify's onRequest hooks", () => {
    // Admin routes of each half: GET /users still on Express, DELETE /products/:id moved to Fastify. A body-less
    // request each, so that nothing but the token decides the answer.
    const adminRoutes = [
      ["Express", "GET", "/users"],
      ["Fastify", "DELETE", `/products/${MISSING_ID}`],
    ] as const;

    it.each(adminRoutes)(
      "%s: %s %s without a token is the 401 challenging for a Bearer token",
      async (_, method, path) => {
        const res = await send(method, path);
        expectProblem(await problemFrom(res), "unauthorized");
        expect(res.headers.get("www-authenticate")).toBe("Bearer");
      },
    );

    it.each(adminRoutes)("%s: %s %s with a customer's token is the 403", async (_, method, path) => {
      const res = await send(method, path, undefined, asCustomer);
      expectProblem(await problemFrom(res), "forbidden");
      expect(res.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope"');
    });

    it("an admin's token is honoured by both: the Express route answers, the Fastify one reaches its handler", async () => {
      const users = await send("GET", "/users?total=true", undefined, asAdmin);
      expect(users.status).toBe(200);
      expect(await users.json()).toMatchObject({ total: 2 });
      // Past both hooks, the data access's own answer: no such product.
      expectProblem(await problemFrom(await send("DELETE", `/products/${MISSING_ID}`, undefined, asAdmin)), "notFound");
    });

    it.each([
      ["Express", "/users"],
      ["Fastify", "/products"],
    ])("%s: a customer's malformed JSON on POST %s is the 403, before the body is read", async (_, path) => {
      expectProblem(await problemFrom(await send("POST", path, '{"name":', asCustomer)), "forbidden");
    });

    it("Express: no token and a body that is not JSON on POST /orders is the 401, not the 415", async () => {
      const res = await send("POST", "/orders", "productId=1", { "content-type": "text/plain" });
      expectProblem(await problemFrom(res), "unauthorized");
    });

    it("a customer's token is the same caller in both: /auth/me on Express, a 403 (not a 401) on Fastify", async () => {
      const me = await send("GET", "/auth/me", undefined, asCustomer);
      expect(me.headers.get("cache-control")).toBe("no-store");
      expect(await me.json()).toEqual(FAKE_USER);
      const write = await send("PATCH", `/products/${FAKE_PRODUCT.id}`, '{"stock":1}', asCustomer);
      expectProblem(await problemFrom(write), "forbidden");
    });
  });

  describe("the security headers: Fastify's helmet, once on every response of both halves", () => {
    /** A response's headers as sent, each name with every value it was sent with (node:http, not fetch, which joins). */
    const rawHeadersOf = (method: string, path: string, headers: Record<string, string> = {}) =>
      new Promise<Map<string, string[]>>((resolve, reject) => {
        const req = request(`${base}${path}`, { method, headers }, (res) => {
          const sent = new Map<string, string[]>();
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = (res.rawHeaders[i] as string).toLowerCase();
            sent.set(name, [...(sent.get(name) ?? []), res.rawHeaders[i + 1] as string]);
          }
          res.resume().on("end", () => resolve(sent));
        });
        req.on("error", reject).end();
      });
    const expected = (csp: string) => ({ ...SECURITY_HEADERS, "content-security-policy": csp });

    it.each([
      ["Express", "a JSON answer", "GET", `/users/${FAKE_USER.id}`, asCustomer],
      ["Express", "a 401 problem", "GET", "/users", {}],
      ["Express", "a 405 problem", "PUT", "/users", asAdmin],
      ["Express", "a 204", "DELETE", `/orders/${FAKE_ORDER.id}`, asAdmin],
      ["Fastify", "a JSON answer", "GET", `/products/${FAKE_PRODUCT.id}`, {}],
      ["Fastify", "a 404 problem of a route", "GET", `/products/${MISSING_ID}`, {}],
      ["Fastify", "the 404 of a path neither serves", "GET", "/no-such-route", {}],
      ["Fastify", "a path its router cannot decode", "GET", "/users/%zz", {}],
    ])("%s: %s (%s %s) carries each exactly once", async (_, __, method, path, headers) => {
      const sent = await rawHeadersOf(method, path, headers);
      const security = Object.fromEntries(Object.keys(expected("")).map((name) => [name, sent.get(name)?.join(" | ")]));
      expect(security).toEqual(expected(API_CONTENT_SECURITY_POLICY));
      // Nor any other header twice (helmet's defaults, the request id, …).
      expect([...sent].filter(([, values]) => values.length > 1)).toEqual([]);
    });

    it("Fastify: /docs carries its page's own policy, once", async () => {
      const sent = await rawHeadersOf("GET", "/docs");
      expect(sent.get("content-security-policy")).toEqual([docsContentSecurityPolicy()]);
      expect(sent.get("x-frame-options")).toEqual(["DENY"]);
    });
  });

  it("app.close() runs the onClose hook that closes the one data access once", async () => {
    await app.close();
    expect(close).toHaveBeenCalledTimes(1);
  });
});

describe("the rate limit on register and login: Express's (express-rate-limit), as long as they are Express routes", () => {
  const LIMIT = 2;
  let limited: Awaited<ReturnType<typeof buildApp>>;
  let limitedBase: string;
  beforeAll(async () => {
    limited = await buildApp({ config: { ...config, authRateLimit: LIMIT }, dataAccess: createFakeDataAccess() });
    await limited.listen({ port: 0, host: "127.0.0.1" });
    limitedBase = `http://127.0.0.1:${(limited.server.address() as AddressInfo).port}`;
  });
  afterAll(() => limited?.close());
  const sendLimited = sendTo(() => limitedBase);
  const login = () => sendLimited("POST", "/auth/login", "{}");

  /** The contract's 429, with `retry-after` in whole seconds within the window, and the security headers. */
  const expectLimited = async (res: Response) => {
    expectProblem(await problemFrom(res), "tooManyRequests");
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(AUTH_RATE_WINDOW_SECONDS);
    expect(res.headers.get("content-security-policy")).toBe(API_CONTENT_SECURITY_POLICY);
  };

  it(`answers ${LIMIT} logins as usual, then the 429; past it a text/plain body is a 429, not a 415`, async () => {
    for (let i = 0; i < LIMIT; i++) expect((await login()).status).toBe(400);
    await expectLimited(await login());
    await expectLimited(await sendLimited("POST", "/auth/login", "{}", { "content-type": "text/plain" }));
  });

  it("counts register apart from login", async () => {
    for (let i = 0; i < LIMIT; i++) expect((await sendLimited("POST", "/auth/register", "{}")).status).toBe(400);
    await expectLimited(await sendLimited("POST", "/auth/register", "{}"));
  });
});
