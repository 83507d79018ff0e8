// The app in Hono's own testing idiom: `app.request()` runs a Request through `app.fetch` in memory, on a fake
// data access (no database, no server). What is checked is what Hono's wiring decides — routing, validation with
// the contract's schemas, the order of checks, problems, request ids, metrics — not the data access, which the
// contract suite covers over real HTTP. Raw-URL rules (`/%75sers`, dot segments) need Node's own `req.url` and
// are checked by the contract suite, since `new Request()` normalises the URL before the app sees it. The fake's
// `auth.authenticate` knows two bearer tokens: FAKE_AUTH.customer (FAKE_USER, who owns FAKE_ORDER) and
// FAKE_AUTH.admin (FAKE_ADMIN).
import { API_CONTENT_SECURITY_POLICY, allowHeader, docsContentSecurityPolicy } from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import {
  FAKE_ADMIN as admin,
  createFakeDataAccess,
  expectProblem,
  FAKE_AUTH,
  FAKE_ORDER,
  FAKE_PRODUCT,
  fetchedProblem,
  jsonInit,
  MISSING_ID,
  FAKE_USER as user,
} from "@api-ref/data-access/testing";
import { AUTH_RATE_WINDOW_SECONDS, createHttpMetrics } from "@api-ref/server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { pino } from "pino";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { buildApp } from "../src/app.ts";

const ID = user.id;
/** The `headers` of a request sent as the customer or as the admin. */
const asCustomer = { authorization: FAKE_AUTH.customer };
const asAdmin = { authorization: FAKE_AUTH.admin };

let dataAccess: DataAccess;
let app: ReturnType<typeof buildApp>;
beforeEach(() => {
  // The shared fake, with a database that cannot be reached behind /ready and spies on what the routes call.
  dataAccess = createFakeDataAccess({
    ping: async () => {
      throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    },
  });
  for (const method of ["list", "create", "remove"] as const) vi.spyOn(dataAccess.users, method);
  // A rate limit these tests reach only where they mean to.
  app = buildApp({
    dataAccess,
    metrics: createHttpMetrics("hono"),
    logger: pino({ level: "silent" }),
    authRateLimit: 1000,
  });
});

describe("routes mounted with app.route()", () => {
  it("GET /users validates the query with the contract's schema and hands the parsed values to the service", async () => {
    const res = await app.request("/users?page=1&limit=5", { headers: asAdmin });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toMatchObject({ data: expect.arrayContaining([user, admin]), page: 1, limit: 5 });
    expect(dataAccess.users.list).toHaveBeenCalledWith({ page: 1, limit: 5, total: false });
  });

  it("POST /users answers 201 with a location, from the validated body", async () => {
    const res = await app.request("/users", jsonInit("POST", '{"email":"New@Example.com","name":" New "}', asAdmin));
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string };
    expect(res.headers.get("location")).toBe(`/users/${created.id}`);
    expect(dataAccess.users.create).toHaveBeenCalledWith({ email: "new@example.com", name: "New" });
  });

  it("DELETE /users/:id is a 204 without a body, the caller handed to the data access", async () => {
    const res = await app.request(`/users/${ID}`, { method: "DELETE", headers: asCustomer });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(dataAccess.users.remove).toHaveBeenCalledWith(ID, { id: ID, role: "customer" });
  });

  it("a ProblemError from the data access leaves through app.onError as problem+json", async () => {
    const res = await app.request(`/users/${MISSING_ID}`, { headers: asAdmin });
    expect(res.status).toBe(404);
    expectProblem(await fetchedProblem(res), "notFound");
  });

  it("an unreachable database is a 503, and the error never reaches the client", async () => {
    const res = await app.request("/ready");
    const problem = expectProblem(await fetchedProblem(res), "unavailable");
    expect(JSON.stringify(problem)).not.toContain("ECONNREFUSED");
  });
});

describe("the contract's order of checks", () => {
  it("a method the path does not serve is a 405 with the contract's allow, before the body is looked at", async () => {
    const res = await app.request("/users", {
      method: "PUT",
      body: "not json",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allowHeader("/users"));
  });

  it.each([
    ["a non-JSON media type", "text/plain"],
    ["a list of media types", "application/json, text/plain"],
    ["a charset other than UTF-8", "application/json; charset=latin1"],
  ])("%s is a 415", async (_, contentType) => {
    const res = await app.request("/users", jsonInit("POST", "{}", { ...asAdmin, "content-type": contentType }));
    expect(res.status).toBe(415);
  });

  it("a declared length over 1 MiB is a 413 that closes the connection, before anything is read", async () => {
    const tooLong = { ...asAdmin, "content-length": String(1024 * 1024 + 1) };
    const res = await app.request("/users", jsonInit("POST", "{}", tooLong));
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expectProblem(await fetchedProblem(res), "payloadTooLarge");
  });

  it("malformed JSON beats an invalid path parameter", async () => {
    const res = await app.request("/users/not-a-uuid", jsonInit("PATCH", "{oops", asCustomer));
    expectProblem(await fetchedProblem(res), "malformedJson");
  });

  it("prototype-poisoning keys are refused while parsing", async () => {
    const res = await app.request(
      "/users",
      jsonInit("POST", '{"__proto__":{"x":1},"email":"a@example.com","name":"A"}', asAdmin),
    );
    expect(res.status).toBe(400);
    expectProblem(await fetchedProblem(res), "validation", ["body"]);
    expect(dataAccess.users.create).not.toHaveBeenCalled();
  });

  it("a JSON body with a byte-order mark is read as without it", async () => {
    const res = await app.request("/users", jsonInit("POST", '\uFEFF{"email":"bom@example.com","name":"B"}', asAdmin));
    expect(res.status).toBe(201);
  });

  it("no body at all is one error on `body`, not one per missing field", async () => {
    const res = await app.request("/users", { method: "POST", headers: asAdmin });
    expectProblem(await fetchedProblem(res), "validation", ["body"]);
  });

  it("unknown query parameters are a 400 naming each", async () => {
    const res = await app.request("/users?page=1&colour=red", { headers: asAdmin });
    expectProblem(await fetchedProblem(res), "validation", ["query.colour"]);
  });
});

describe("paths, request ids and metrics", () => {
  it.each(["/users/", "/Users", "/nowhere"])("%s is the contract's 404", async (path) => {
    const res = await app.request(path);
    expect(res.status).toBe(404);
    expectProblem(await fetchedProblem(res), "notFound");
  });

  it("a valid client x-request-id is echoed; an invalid one is replaced by a UUID", async () => {
    expect(
      (await app.request("/health", { headers: { "x-request-id": "trace.42" } })).headers.get("x-request-id"),
    ).toBe("trace.42");
    const replaced = (await app.request("/health", { headers: { "x-request-id": "a=b" } })).headers.get("x-request-id");
    expect(replaced).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("metrics are labelled with the route template, 405s with their path's, unknown paths as unmatched", async () => {
    await app.request(`/users/${ID}`, { headers: asCustomer });
    await app.request("/users", { method: "DELETE" });
    await app.request("/nowhere");
    const text = await (await app.request("/metrics")).text();
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/users\/:id",status="200"[^}]*\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="DELETE",route="\/users",status="405"[^}]*\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="unmatched",status="404"[^}]*\} 1$/m);
  });

  it("HEAD is served by the GET route, without a body", async () => {
    const res = await app.request("/health", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});

describe("authorization: `authenticate` sets c.var.user, `requireAdmin` checks its role", () => {
  it("no token is a 401 with the plain Bearer challenge", async () => {
    const res = await app.request("/users");
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expectProblem(await fetchedProblem(res), "unauthorized");
  });

  it("a token the data access refuses is a 401 with invalid_token", async () => {
    const res = await app.request("/auth/me", { headers: { authorization: "Bearer not.a.token" } });
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expectProblem(await fetchedProblem(res), "unauthorized");
  });

  it("a customer on an admin route is a 403 forbidden, insufficient_scope, before the data access is asked", async () => {
    const res = await app.request("/users", { headers: asCustomer });
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope"');
    expectProblem(await fetchedProblem(res), "forbidden");
    expect(dataAccess.users.list).not.toHaveBeenCalled();
  });

  it("an admin deletes a product", async () => {
    const res = await app.request(`/products/${FAKE_PRODUCT.id}`, { method: "DELETE", headers: asAdmin });
    expect(res.status).toBe(204);
  });

  it("a customer reads their own user, and another user's is a 404", async () => {
    const own = await app.request(`/users/${ID}`, { headers: asCustomer });
    expect(await own.json()).toEqual(user);
    const other = await app.request(`/users/${admin.id}`, { headers: asCustomer });
    expectProblem(await fetchedProblem(other), "notFound");
  });

  it("a customer reads their own order", async () => {
    const res = await app.request(`/orders/${FAKE_ORDER.id}`, { headers: asCustomer });
    expect(await res.json()).toEqual(FAKE_ORDER);
  });

  it("an order placed is the caller's: the body names no user", async () => {
    const order = JSON.stringify({ productId: FAKE_PRODUCT.id, quantity: 2 });
    const res = await app.request("/orders", jsonInit("POST", order, asAdmin));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ userId: admin.id, productId: FAKE_PRODUCT.id, quantity: 2 });
  });

  it("GET /auth/me answers the caller's own user, not to be cached", async () => {
    const res = await app.request("/auth/me", { headers: asCustomer });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual(user);
  });

  it("register's token is not to be cached; a refused login carries no cache-control", async () => {
    const credentials = { email: "new@example.com", password: "password1" };
    const res = await app.request("/auth/register", jsonInit("POST", JSON.stringify({ ...credentials, name: "N" })));
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const refused = await app.request("/auth/login", jsonInit("POST", JSON.stringify(credentials)));
    expect(refused.headers.get("cache-control")).toBeNull();
    expectProblem(await fetchedProblem(refused), "unauthorized");
  });

  it("the role is checked before the body: a customer with malformed JSON on an admin route is a 403", async () => {
    const res = await app.request("/products", jsonInit("POST", "{oops", asCustomer));
    expectProblem(await fetchedProblem(res), "forbidden");
  });

  it("authentication is checked before the media type: no token and text/plain on POST /orders is a 401", async () => {
    const res = await app.request("/orders", jsonInit("POST", "quantity=1", { "content-type": "text/plain" }));
    expectProblem(await fetchedProblem(res), "unauthorized");
  });

  it("the request log holds no token and no cookie", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const logged = buildApp({ dataAccess, metrics: createHttpMetrics("hono"), logger, authRateLimit: 1000 });
    const res = await logged.request("/auth/me", { headers: { ...asAdmin, cookie: "session=secret-cookie" } });
    expect(res.status).toBe(200);
    expect(lines.join("")).toContain("request completed");
    expect(lines.join("")).not.toContain(FAKE_AUTH.admin.slice("Bearer ".length));
    expect(lines.join("")).not.toContain("secret-cookie");
  });
});

describe("the rate limit on register and login (hono-rate-limiter)", () => {
  /**
   * An app limited to `limit` requests a window per client address, read by @hono/node-server's `getConnInfo` from
   * the bindings its server hands the app (here a request from `address`).
   */
  const limited = (limit: number) => {
    const logger = pino({ level: "silent" });
    const limitedApp = buildApp({
      dataAccess,
      metrics: createHttpMetrics("hono"),
      logger,
      authRateLimit: limit,
      getConnInfo,
    });
    return (path: string, init: RequestInit, address = "192.0.2.1") =>
      limitedApp.request(path, init, { incoming: { socket: { remoteAddress: address } } } as never);
  };
  const wrongLogin = () => jsonInit("POST", JSON.stringify({ email: user.email, password: "wrong-password" }));

  it("past the limit, a 429 too-many-requests with a retry-after in whole seconds, at most the window", async () => {
    const send = limited(2);
    for (let i = 0; i < 2; i++)
      expectProblem(await fetchedProblem(await send("/auth/login", wrongLogin())), "unauthorized");
    const res = await send("/auth/login", wrongLogin());
    expectProblem(await fetchedProblem(res), "tooManyRequests");
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(AUTH_RATE_WINDOW_SECONDS);
  });

  it("past the limit, the 429 comes before the media type (415)", async () => {
    const send = limited(1);
    expect((await send("/auth/register", jsonInit("POST", "{}"))).status).toBe(400);
    const res = await send("/auth/register", jsonInit("POST", "{}", { "content-type": "text/plain" }));
    expectProblem(await fetchedProblem(res), "tooManyRequests");
  });

  it("each route is counted apart, and so is each client address; routing still comes first (405)", async () => {
    const send = limited(1);
    expect((await send("/auth/login", wrongLogin())).status).toBe(401);
    expect((await send("/auth/login", wrongLogin())).status).toBe(429);
    expect((await send("/auth/login", wrongLogin(), "192.0.2.2")).status).toBe(401);
    const registration = JSON.stringify({ email: "apart@example.com", name: "Apart", password: "password1" });
    expect((await send("/auth/register", jsonInit("POST", registration))).status).toBe(201);
    expect((await send("/auth/login", { method: "GET" })).status).toBe(405);
  });
});

describe("the security headers (secureHeaders)", () => {
  const expectHeaders = (res: Response, policy: string) => {
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toBe(policy);
  };

  it("on a JSON answer, with the API's content-security-policy", async () => {
    const res = await app.request(`/products/${FAKE_PRODUCT.id}`);
    expect(res.status).toBe(200);
    expectHeaders(res, API_CONTENT_SECURITY_POLICY);
  });

  it("on problems: from app.notFound (404, 405) and app.onError (401, 429)", async () => {
    const limited = buildApp({
      dataAccess,
      metrics: createHttpMetrics("hono"),
      logger: pino({ level: "silent" }),
      authRateLimit: 1,
    });
    await limited.request("/auth/login", jsonInit("POST", "{}"));
    const answers = [
      await app.request("/nowhere"),
      await app.request("/users", { method: "PUT" }),
      await app.request("/auth/me"),
      await limited.request("/auth/login", jsonInit("POST", "{}")),
    ];
    expect(answers.map((res) => res.status)).toEqual([404, 405, 401, 429]);
    for (const res of answers) {
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expectHeaders(res, API_CONTENT_SECURITY_POLICY);
    }
  });

  it("on /docs, with the page's own policy", async () => {
    const res = await app.request("/docs");
    expect(res.status).toBe(200);
    expectHeaders(res, docsContentSecurityPolicy());
  });
});
