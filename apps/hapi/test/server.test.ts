// The hapi server as hapi teaches testing it: `init()` initialises it without listening and `server.inject()` sends
// requests through the whole lifecycle (extensions, auth, validation, onPreResponse), on the fake data access from
// @api-ref/data-access/testing: no database, no socket. FAKE_AUTH's headers are a customer's and an admin's tokens.

import { API_CONTENT_SECURITY_POLICY, docsContentSecurityPolicy } from "@api-ref/contract";
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
import { AUTH_RATE_WINDOW_SECONDS, createHttpMetrics } from "@api-ref/server";
import type { Server, ServerInjectOptions, ServerInjectResponse } from "@hapi/hapi";
import { type Logger, pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { init } from "../src/app.ts";

let server: Server;

/** A limit the tests never reach, but those of the rate limit, which start their own server with a small one. */
const NEVER_REACHED = 1000;

const start = (logger: Logger = pino({ level: "silent" }), authRateLimit = NEVER_REACHED) =>
  init({ dataAccess: createFakeDataAccess(), metrics: createHttpMetrics("hapi"), logger, authRateLimit });

beforeEach(async () => {
  server = await start();
});

afterEach(async () => {
  await server.stop();
});

const problemIn = (res: ServerInjectResponse) => ({
  status: res.statusCode,
  contentType: res.headers["content-type"],
  body: res.result,
});

/** A request with the caller's `authorization` header (FAKE_AUTH's customer or admin). */
const as = (who: keyof typeof FAKE_AUTH, options: ServerInjectOptions) =>
  server.inject({ ...options, headers: { ...options.headers, authorization: FAKE_AUTH[who] } });

describe("GET /orders/{id}", () => {
  it("answers the caller's order the data access returned", async () => {
    const res = await as("customer", { method: "GET", url: `/orders/${FAKE_ORDER.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(res.payload)).toEqual(FAKE_ORDER);
  });

  it("answers a not-found problem for an id the data access does not hold", async () => {
    expectProblem(problemIn(await as("customer", { url: `/orders/${MISSING_ID}` })), "notFound");
  });
});

describe("PATCH /users/{id}", () => {
  it("refuses an empty change with one error on body", async () => {
    const res = await as("customer", { method: "PATCH", url: `/users/${FAKE_USER.id}`, payload: {} });
    expectProblem(problemIn(res), "validation", ["body"]);
  });
});

describe("the request-id extension", () => {
  it("echoes the client's id on a Boom response too (a route hapi has not got)", async () => {
    const res = await server.inject({ url: "/nowhere", headers: { "x-request-id": "trace.42" } });
    expectProblem(problemIn(res), "notFound");
    expect(res.headers["x-request-id"]).toBe("trace.42");
  });
});

describe("the bearer auth strategy", () => {
  it("answers a request without a token with a 401 and the plain Bearer challenge", async () => {
    const res = await server.inject("/auth/me");
    expectProblem(problemIn(res), "unauthorized");
    expect(res.headers["www-authenticate"]).toBe("Bearer");
  });

  it("answers a refused token with a 401 and the invalid_token challenge", async () => {
    const res = await server.inject({ url: "/orders", headers: { authorization: "Bearer not.a.token" } });
    expectProblem(problemIn(res), "unauthorized");
    expect(res.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
  });

  it("answers a customer on an admin route with the contract's 403, not Boom's", async () => {
    const res = await as("customer", { url: "/users" });
    expectProblem(problemIn(res), "forbidden");
    expect(res.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope"');
  });

  it("lets an admin through an admin route", async () => {
    const res = await as("admin", { url: "/users" });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.payload).data.map((user: { id: string }) => user.id)).toContain(FAKE_ADMIN.id);
  });

  it("answers a customer's read of another user's row as if it did not exist", async () => {
    expectProblem(problemIn(await as("customer", { url: `/users/${FAKE_ADMIN.id}` })), "notFound");
  });

  it("leaves public routes public, and routing before auth (a 405 without a token)", async () => {
    expect((await server.inject(`/products/${FAKE_PRODUCT.id}`)).statusCode).toBe(200);
    const res = await server.inject({ method: "PUT", url: "/users" });
    expectProblem(problemIn(res), "methodNotAllowed");
  });

  it("answers GET /auth/me with the caller's own user, never stored by a cache", async () => {
    const res = await as("customer", { url: "/auth/me" });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.payload)).toEqual(FAKE_USER);
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("answers register with a token that no cache stores", async () => {
    const payload = { email: "new@example.com", name: "New", password: "correct horse" };
    const res = await server.inject({ method: "POST", url: "/auth/register", payload });
    expect(res.statusCode).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("places an order for the caller, and refuses a userId in the body", async () => {
    const payload = { productId: FAKE_PRODUCT.id, quantity: 1 };
    const res = await as("admin", { method: "POST", url: "/orders", payload });
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.payload).userId).toBe(FAKE_ADMIN.id);
    const withUser = await as("customer", {
      method: "POST",
      url: "/orders",
      payload: { ...payload, userId: MISSING_ID },
    });
    expectProblem(problemIn(withUser), "validation", ["body.userId"]);
  });
});

describe("the contract's order: 401, 403, then the body (415, 413, JSON), then validation", () => {
  const overOneMiB = `{"name":"${"x".repeat(1024 * 1024)}"}`;

  it("answers 403 to a customer's malformed JSON on an admin route", async () => {
    const payload = "{oops";
    const headers = { "content-type": "application/json" };
    expectProblem(problemIn(await as("customer", { method: "POST", url: "/products", payload, headers })), "forbidden");
    expectProblem(
      problemIn(await as("admin", { method: "POST", url: "/products", payload, headers })),
      "malformedJson",
    );
  });

  it("answers 401 to a wrong content type without a token", async () => {
    const res = await server.inject({
      method: "POST",
      url: "/orders",
      payload: "productId=1",
      headers: { "content-type": "text/plain" },
    });
    expectProblem(problemIn(res), "unauthorized");
    const signedIn = await as("customer", {
      method: "POST",
      url: "/orders",
      payload: "productId=1",
      headers: { "content-type": "text/plain" },
    });
    expectProblem(problemIn(signedIn), "unsupportedMediaType");
  });

  it("answers 403 to a customer's body over 1 MiB on an admin route, 413 to an admin's", async () => {
    const options = {
      method: "POST",
      url: "/products",
      payload: overOneMiB,
      headers: { "content-type": "application/json" },
    };
    expectProblem(problemIn(await as("customer", options)), "forbidden");
    expectProblem(problemIn(await as("admin", options)), "payloadTooLarge");
  });

  it("answers 403 to a customer's invalid path id on an admin route, and reads the JSON before the id", async () => {
    const url = "/products/not-a-uuid";
    expectProblem(problemIn(await as("customer", { method: "DELETE", url })), "forbidden");
    const malformed = { method: "PATCH", url, payload: "{", headers: { "content-type": "application/json" } };
    expectProblem(problemIn(await as("admin", malformed)), "malformedJson");
    expectProblem(problemIn(await as("admin", { method: "PATCH", url, payload: { name: 5 } })), "validation", [
      "params.id",
    ]);
  });
});

describe("the auth rate limit", () => {
  const LIMIT = 2;
  const wrongLogin = { email: "ada@example.com", password: "wrong password" };
  const login = (options: Partial<ServerInjectOptions> = {}) =>
    server.inject({ method: "POST", url: "/auth/login", payload: wrongLogin, ...options });

  beforeEach(async () => {
    await server.stop();
    server = await start(undefined, LIMIT);
  });

  /** The contract's 429 with a `retry-after` of whole seconds within the window. */
  const expectLimited = (res: ServerInjectResponse) => {
    expectProblem(problemIn(res), "tooManyRequests");
    const retryAfter = String(res.headers["retry-after"]);
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(AUTH_RATE_WINDOW_SECONDS);
  };

  it("answers the requests past the limit, whatever their outcome, with a 429 and a retry-after", async () => {
    for (let i = 0; i < LIMIT; i++) expectProblem(problemIn(await login()), "unauthorized");
    expectLimited(await login());
  });

  it("answers 429 before reading anything about the request (415, malformed JSON)", async () => {
    for (let i = 0; i < LIMIT; i++) await login();
    expectLimited(await login({ payload: "{}", headers: { "content-type": "text/plain" } }));
    expectLimited(await login({ payload: "{oops", headers: { "content-type": "application/json" } }));
  });

  it("counts each route and each client address apart, and routes first (405)", async () => {
    for (let i = 0; i <= LIMIT; i++) await login();
    expectLimited(await login());
    expectProblem(problemIn(await server.inject({ url: "/auth/login" })), "methodNotAllowed");
    expectProblem(problemIn(await login({ remoteAddress: "203.0.113.7" })), "unauthorized");
    // An X-Forwarded-For is no other client.
    expectLimited(await login({ headers: { "x-forwarded-for": "203.0.113.8" } }));
    const register = await server.inject({ method: "POST", url: "/auth/register", payload: {} });
    expectProblem(problemIn(register), "validation", ["body.email", "body.name", "body.password"]);
  });
});

describe("the security headers", () => {
  const expectHeaders = (res: ServerInjectResponse, policy = API_CONTENT_SECURITY_POLICY) => {
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["content-security-policy"]).toBe(policy);
  };

  it("are on a JSON answer, a problem, a 404 and a 405", async () => {
    expectHeaders(await server.inject("/health"));
    expectHeaders(await server.inject("/auth/me"));
    expectHeaders(await server.inject("/nowhere"));
    expectHeaders(await server.inject("/%75sers"));
    expectHeaders(await server.inject({ method: "PUT", url: "/users" }));
  });

  it("give /docs its page's policy, GET and HEAD", async () => {
    expectHeaders(await server.inject("/docs"), docsContentSecurityPolicy());
    expectHeaders(await server.inject({ method: "HEAD", url: "/docs" }), docsContentSecurityPolicy());
  });
});

describe("logging", () => {
  it("never writes a token, a cookie or a password to the log", async () => {
    await server.stop();
    const lines: string[] = [];
    server = await start(pino({ level: "trace" }, { write: (line: string) => void lines.push(line) }));
    const cookie = "session=cookie-secret";
    await server.inject({ url: "/auth/me", headers: { authorization: FAKE_AUTH.admin, cookie } });
    await server.inject({ url: "/users", headers: { authorization: FAKE_AUTH.customer, cookie } });
    await server.inject({ url: "/orders", headers: { authorization: "Bearer refused.token.value", cookie } });
    const login = { email: "ada@example.com", password: "password-secret" };
    await server.inject({ method: "POST", url: "/auth/login", payload: login });
    // What hapi-pino logs a request with: its `req` serializer writes every header.
    server.logger.info({ req: { method: "GET", url: "/", headers: { authorization: FAKE_AUTH.admin, cookie } } });

    const log = lines.join("");
    expect(lines.filter((line) => line.includes('"statusCode"')).length).toBeGreaterThanOrEqual(4);
    expect(log).toContain("[Redacted]");
    for (const secret of [
      FAKE_AUTH.admin,
      FAKE_AUTH.customer,
      "refused.token.value",
      "cookie-secret",
      "password-secret",
    ])
      expect(log).not.toContain(secret.replace("Bearer ", ""));
  });
});
