// The app in Elysia's own testing idiom, with Bun's test runner: `app.handle(new Request(...))` runs a request through
// the app in memory, on the fake data access from @api-ref/data-access/testing (no database, no server; FAKE_AUTH's
// headers are a customer's and an admin's tokens). What is checked is what the Elysia wiring decides — routing, the
// auth macro, the contract's schemas as Elysia's validators, the contract's body rules, the order of checks, problems,
// request ids, metrics, logs. Raw-URL rules (`/%75sers`, dot segments) and the server's limits need Bun.serve and a
// socket: the contract suite checks them over real HTTP.
import { beforeEach, describe, expect, it, spyOn } from "bun:test";
import { API_CONTENT_SECURITY_POLICY, allowHeader, docsContentSecurityPolicy } from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import {
  createFakeDataAccess,
  expectProblem,
  FAKE_ADMIN,
  FAKE_AUTH,
  FAKE_PRODUCT,
  fetchedProblem,
  jsonInit,
  MISSING_ID,
  FAKE_USER as user,
} from "@api-ref/data-access/testing";
import { AUTH_RATE_WINDOW_SECONDS, createHttpMetrics } from "@api-ref/server";
import { type Logger, pino } from "pino";
import { buildApp } from "../src/app.ts";

const ID = user.id;
// Elysia finds the path after the origin by position, as a server's request URL always has one: a real host here.
const url = (path: string) => `http://localhost${path}`;

let dataAccess: DataAccess;
let app: ReturnType<typeof buildApp>;
/** A limit the tests never reach, but those of the rate limit, which build their own app with a small one. */
const NEVER_REACHED = 1000;
/** The test's stand-in for Bun's `server.requestIP`: the address a request names in `x-test-address`, if any. */
const requestIP = (request: Request) => ({
  address: request.headers.get("x-test-address") ?? "192.0.2.1",
  port: 40000,
  family: "IPv4" as const,
});

const start = (logger: Logger = pino({ level: "silent" }), authRateLimit = NEVER_REACHED) => {
  // The shared fake, with a database that cannot be reached behind /ready and spies on what the routes call.
  dataAccess = createFakeDataAccess({
    ping: async () => {
      throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    },
  });
  for (const method of ["list", "create", "remove"] as const) spyOn(dataAccess.users, method);
  app = buildApp({ dataAccess, metrics: createHttpMetrics("elysia"), logger, authRateLimit, requestIP });
};
beforeEach(() => start());

/** A request, with the `authorization` header of FAKE_AUTH's customer or admin when `who` names one. */
const request = (path: string, init: RequestInit = {}, who?: keyof typeof FAKE_AUTH) => {
  const headers = new Headers(init.headers);
  if (who) headers.set("authorization", FAKE_AUTH[who]);
  return app.handle(new Request(url(path), { ...init, headers }));
};
const customer = { id: user.id, role: "customer" };

describe("routes, one plugin per resource", () => {
  it("GET /users validates the query with the contract's schema and hands the parsed values to the data access", async () => {
    const res = await request("/users?page=1&limit=5", {}, "admin");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toMatchObject({ data: [user, FAKE_ADMIN], page: 1, limit: 5 });
    expect(dataAccess.users.list).toHaveBeenCalledWith({ page: 1, limit: 5, total: false });
  });

  it("POST /users answers 201 with a location, from the body as the contract's schema output it", async () => {
    const res = await request("/users", jsonInit("POST", '{"email":"New@Example.com","name":" New "}'), "admin");
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string };
    expect(res.headers.get("location")).toBe(`/users/${created.id}`);
    expect(dataAccess.users.create).toHaveBeenCalledWith({ email: "new@example.com", name: "New" });
  });

  it("DELETE /users/:id is a 204 without a body or a content type", async () => {
    const res = await request(`/users/${ID}`, { method: "DELETE" }, "customer");
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(res.headers.get("content-type")).toBeNull();
    expect(dataAccess.users.remove).toHaveBeenCalledWith(ID, customer);
  });

  it("a ProblemError from the data access leaves through onError as problem+json", async () => {
    const res = await request(`/users/${MISSING_ID}`, {}, "admin");
    expect(res.status).toBe(404);
    expectProblem(await fetchedProblem(res), "notFound");
  });

  it("an unreachable database is a 503, and the error never reaches the client", async () => {
    const res = await request("/ready");
    const problem = expectProblem(await fetchedProblem(res), "unavailable");
    expect(JSON.stringify(problem)).not.toContain("ECONNREFUSED");
  });

  it("HEAD is served by the GET route, without a body", async () => {
    const res = await request("/health", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});

describe("validation: the contract's Zod schemas as Elysia's (Standard Schema) validators", () => {
  it("an invalid path parameter is the contract's 400 on params.id, not Elysia's own 422", async () => {
    const res = await request("/users/not-a-uuid", {}, "customer");
    expect(res.status).toBe(400);
    expectProblem(await fetchedProblem(res), "validation", ["params.id"]);
  });

  it("every field error of the body is named, unknown keys one by one", async () => {
    const res = await request("/users", jsonInit("POST", '{"email":"nope","name":"A","colour":"red"}'), "admin");
    expectProblem(await fetchedProblem(res), "validation", ["body.email", "body.colour"]);
  });

  it("an invalid Idempotency-Key on POST /orders is a 400 on headers, before the body", async () => {
    const res = await request("/orders", jsonInit("POST", "{}", { "idempotency-key": "has spaces" }), "customer");
    expectProblem(await fetchedProblem(res), "validation", ["headers.idempotency-key"]);
  });

  it("commas in a query value are the value's (include=user,product), not a list Elysia made", async () => {
    const res = await request("/orders?include=user,product", {}, "customer");
    expect(res.status).toBe(200);
  });

  it("a repeated query parameter is a 400, not its last value", async () => {
    const res = await request("/users?limit=1&limit=2", {}, "admin");
    expectProblem(await fetchedProblem(res), "validation", ["query.limit"]);
    expect(dataAccess.users.list).not.toHaveBeenCalled();
  });

  it("unknown query parameters are a 400 naming each", async () => {
    const res = await request("/users?page=1&colour=red", {}, "admin");
    expectProblem(await fetchedProblem(res), "validation", ["query.colour"]);
  });
});

describe("the contract's order of checks", () => {
  it("a method the path does not serve is a 405 with the contract's allow, before the body is looked at", async () => {
    const res = await request("/users", { method: "PUT", body: "not json", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allowHeader("/users"));
  });

  for (const [what, contentType] of [
    ["a non-JSON media type", "text/plain"],
    ["a list of media types", "application/json, text/plain"],
    ["a charset other than UTF-8", "application/json; charset=latin1"],
  ]) {
    it(`${what} is a 415`, async () => {
      const res = await request("/users", jsonInit("POST", "{}", { "content-type": contentType as string }), "admin");
      expect(res.status).toBe(415);
    });
  }

  it("a declared length over 1 MiB is a 413 that closes the connection, before anything is read", async () => {
    const res = await request("/users", jsonInit("POST", "{}", { "content-length": String(1024 * 1024 + 1) }), "admin");
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expectProblem(await fetchedProblem(res), "payloadTooLarge");
  });

  it("malformed JSON beats an invalid path parameter", async () => {
    const res = await request("/users/not-a-uuid", jsonInit("PATCH", "{oops"), "customer");
    expectProblem(await fetchedProblem(res), "malformedJson");
  });

  it("prototype-poisoning keys are refused while parsing", async () => {
    const body = '{"__proto__":{"x":1},"email":"a@example.com","name":"A"}';
    const res = await request("/users", jsonInit("POST", body), "admin");
    expectProblem(await fetchedProblem(res), "validation", ["body"]);
    expect(dataAccess.users.create).not.toHaveBeenCalled();
  });

  it("no body at all is one error on `body`, not one per missing field", async () => {
    const res = await request("/users", { method: "POST" }, "admin");
    expectProblem(await fetchedProblem(res), "validation", ["body"]);
  });
});

describe("the auth macro, given to each group of protected routes", () => {
  it("answers a request without a token with a 401 and the plain Bearer challenge", async () => {
    const res = await request("/auth/me");
    expectProblem(await fetchedProblem(res), "unauthorized");
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("answers a refused token with a 401 and the invalid_token challenge", async () => {
    const res = await request("/orders", { headers: { authorization: "Bearer not.a.token" } });
    expectProblem(await fetchedProblem(res), "unauthorized");
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
  });

  it("answers a customer on an admin route with a 403 and the insufficient_scope challenge", async () => {
    const res = await request("/users", {}, "customer");
    expectProblem(await fetchedProblem(res), "forbidden");
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope"');
    expect(dataAccess.users.list).not.toHaveBeenCalled();
  });

  it("lets an admin through an admin route", async () => {
    const res = await request(`/products/${FAKE_PRODUCT.id}`, jsonInit("PATCH", '{"stock":7}'), "admin");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: FAKE_PRODUCT.id, stock: 7 });
  });

  it("answers a customer's read of another user's row as if it did not exist", async () => {
    expectProblem(await fetchedProblem(await request(`/users/${FAKE_ADMIN.id}`, {}, "customer")), "notFound");
  });

  it("leaves public routes public", async () => {
    expect((await request(`/products/${FAKE_PRODUCT.id}`)).status).toBe(200);
    expect((await request("/echo", jsonInit("POST", '{"a":1}'))).status).toBe(200);
  });

  it("answers GET /auth/me with the caller's own user, never stored by a cache", async () => {
    const res = await request("/auth/me", {}, "customer");
    expect(await res.json()).toEqual(user);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers register with a token that no cache stores", async () => {
    const res = await request(
      "/auth/register",
      jsonInit("POST", '{"email":"n@example.com","name":"N","password":"12345678"}'),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("places an order for the caller, and refuses a userId in the body", async () => {
    const order = `{"productId":"${FAKE_PRODUCT.id}","quantity":1}`;
    const res = await request("/orders", jsonInit("POST", order), "admin");
    expect(res.status).toBe(201);
    expect(((await res.json()) as { userId: string }).userId).toBe(FAKE_ADMIN.id);
    const withUser = await request("/orders", jsonInit("POST", order.replace("{", `{"userId":"${ID}",`)), "customer");
    expectProblem(await fetchedProblem(withUser), "validation", ["body.userId"]);
  });
});

describe("the contract's order: 401 and 403 before the body (415, 413, JSON) and validation", () => {
  it("answers 403 to a customer's malformed JSON on an admin route, malformed JSON to an admin", async () => {
    expectProblem(await fetchedProblem(await request("/products", jsonInit("POST", "{oops"), "customer")), "forbidden");
    expectProblem(
      await fetchedProblem(await request("/products", jsonInit("POST", "{oops"), "admin")),
      "malformedJson",
    );
  });

  it("answers 401 to a wrong content type without a token, 415 with one", async () => {
    const init = () => jsonInit("POST", "productId=1", { "content-type": "text/plain" });
    expectProblem(await fetchedProblem(await request("/orders", init())), "unauthorized");
    expectProblem(await fetchedProblem(await request("/orders", init(), "customer")), "unsupportedMediaType");
  });

  it("answers 403 to a customer's body over 1 MiB on an admin route, 413 to an admin's", async () => {
    const init = () => jsonInit("POST", `{"name":"${"x".repeat(1024 * 1024)}"}`);
    expectProblem(await fetchedProblem(await request("/products", init(), "customer")), "forbidden");
    expectProblem(await fetchedProblem(await request("/products", init(), "admin")), "payloadTooLarge");
  });

  it("answers 403 to a customer's invalid path id on an admin route", async () => {
    const res = await request("/products/not-a-uuid", { method: "DELETE" }, "customer");
    expectProblem(await fetchedProblem(res), "forbidden");
  });
});

describe("the request logger", () => {
  it("never writes a token, a cookie or a password to the log", async () => {
    const lines: string[] = [];
    start(pino({ level: "trace" }, { write: (line: string) => void lines.push(line) }));
    const cookie = "session=cookie-secret";
    await request("/auth/me", { headers: { cookie } }, "admin");
    await request("/users", { headers: { cookie } }, "customer");
    await request("/orders", { headers: { authorization: "Bearer refused.token.value", cookie } });
    await request("/auth/login", jsonInit("POST", '{"email":"ada@example.com","password":"password-secret"}'));
    // onAfterResponse runs once the response is handed over (on the next turn of the event loop).
    await new Promise((resolve) => setImmediate(resolve));

    const log = lines.join("");
    expect(lines.length).toBe(4);
    for (const secret of [
      "fake-admin-token",
      "fake-customer-token",
      "refused.token.value",
      "cookie-secret",
      "password-secret",
    ])
      expect(log).not.toContain(secret);
  });
});

describe("the auth rate limit", () => {
  const LIMIT = 2;
  const wrongLogin = '{"email":"ada@example.com","password":"wrong password"}';
  const login = (body = wrongLogin, headers: Record<string, string> = {}) =>
    request("/auth/login", jsonInit("POST", body, headers));
  beforeEach(() => start(undefined, LIMIT));

  /** The contract's 429 with a `retry-after` of whole seconds within the window. */
  const expectLimited = async (res: Response) => {
    const retryAfter = res.headers.get("retry-after") ?? "";
    expectProblem(await fetchedProblem(res), "tooManyRequests");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(AUTH_RATE_WINDOW_SECONDS);
  };

  it("answers the requests past the limit, whatever their outcome, with a 429 and a retry-after", async () => {
    for (let i = 0; i < LIMIT; i++) expectProblem(await fetchedProblem(await login()), "unauthorized");
    await expectLimited(await login());
  });

  it("answers 429 before reading anything about the request (415, 413, malformed JSON)", async () => {
    for (let i = 0; i < LIMIT; i++) await login();
    await expectLimited(await login("{}", { "content-type": "text/plain" }));
    await expectLimited(await login("{}", { "content-length": String(1024 * 1024 + 1) }));
    await expectLimited(await login("{oops"));
  });

  it("counts each route and each client address apart, and routes first (405)", async () => {
    for (let i = 0; i <= LIMIT; i++) await login();
    await expectLimited(await login());
    expectProblem(await fetchedProblem(await request("/auth/login")), "methodNotAllowed");
    expectProblem(await fetchedProblem(await login(wrongLogin, { "x-test-address": "203.0.113.7" })), "unauthorized");
    // An X-Forwarded-For is no other client.
    await expectLimited(await login(wrongLogin, { "x-forwarded-for": "203.0.113.8" }));
    const register = await request("/auth/register", jsonInit("POST", "{}"));
    expectProblem(await fetchedProblem(register), "validation", ["body.email", "body.name", "body.password"]);
  });
});

describe("the security headers", () => {
  const expectHeaders = (res: Response, policy = API_CONTENT_SECURITY_POLICY) => {
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toBe(policy);
  };

  it("are on a JSON answer, a problem, a 404 and a 405", async () => {
    expectHeaders(await request("/health"));
    expectHeaders(await request("/auth/me"));
    expectHeaders(await request("/nowhere"));
    expectHeaders(await request("/users", { method: "PUT" }));
    expectHeaders(await request("/echo", jsonInit("POST", "{oops")));
  });

  it("give /docs its page's policy, GET and HEAD", async () => {
    expectHeaders(await request("/docs"), docsContentSecurityPolicy());
    expectHeaders(await request("/docs", { method: "HEAD" }), docsContentSecurityPolicy());
  });
});

describe("paths, request ids and metrics", () => {
  for (const path of ["/users/", "/Users", "/nowhere"]) {
    it(`${path} is the contract's 404, with a body`, async () => {
      const res = await request(path);
      expect(res.status).toBe(404);
      expectProblem(await fetchedProblem(res), "notFound");
    });
  }

  it("a valid client x-request-id is echoed; an invalid one is replaced by a UUID; a 404 carries one too", async () => {
    expect((await request("/health", { headers: { "x-request-id": "trace.42" } })).headers.get("x-request-id")).toBe(
      "trace.42",
    );
    const replaced = (await request("/health", { headers: { "x-request-id": "a=b" } })).headers.get("x-request-id");
    expect(replaced).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await request("/nowhere", { headers: { "x-request-id": "lost.1" } })).headers.get("x-request-id")).toBe(
      "lost.1",
    );
  });

  it("metrics are labelled with the route template, 405s with their path's, unknown paths as unmatched", async () => {
    await request(`/users/${ID}`, {}, "customer");
    await request("/users", { method: "DELETE" });
    await request("/nowhere");
    // onAfterResponse runs once the response is handed over (on the next turn of the event loop).
    await new Promise((resolve) => setImmediate(resolve));
    const text = await (await request("/metrics")).text();
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/users\/:id",status="200"[^}]*\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="DELETE",route="\/users",status="405"[^}]*\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="unmatched",status="404"[^}]*\} 1$/m);
  });
});
