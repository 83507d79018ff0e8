// The oracle decides what the hostile-input fault expects: it must agree with the contract's own decisions (the
// rows of the contract suite's error tables) before it can judge an implementation.
import { allowHeader, PROBLEMS } from "@api-ref/contract";
import { fixtureUsers, MISSING_ID } from "@api-ref/db/fixtures";
import type { Exchange } from "@api-ref/harness";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { authorizationAttacks } from "../src/hostile/attacks.ts";
import { requestArbitrary } from "../src/hostile/generate.ts";
import { expectedFor, isJsonContentType, matchTemplate, parseQuery } from "../src/hostile/oracle.ts";

// The callers the oracle knows, by the header they send: the seed's admin and a customer.
const ADMIN = "Bearer admin.token.here";
const CUSTOMER = "Bearer customer.token.here";
const customerId = fixtureUsers.noOrders.id;
const context = {
  callers: new Map([
    [ADMIN, { id: fixtureUsers.admin.id, role: "admin" as const }],
    [CUSTOMER, { id: customerId, role: "customer" as const }],
  ]),
};
/** A JSON request, by the admin unless told (public routes ignore the header). */
const json = (method: string, path: string, body: unknown, type = "application/json", as = ADMIN): Exchange => ({
  method,
  path,
  headers: { "content-type": type, authorization: as },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const get = (path: string, as = ADMIN): Exchange => ({
  method: "GET",
  path,
  ...(as ? { headers: { authorization: as } } : {}),
});
const statuses = (exchange: Exchange) =>
  [...new Set(expectedFor(exchange, context).answers.map((a) => a.status))].sort();
const only = (exchange: Exchange) => {
  const { answers, lenient } = expectedFor(exchange, context);
  expect(lenient).toBeUndefined();
  expect(answers).toHaveLength(1);
  return answers[0];
};

describe("the oracle follows the contract's check order", () => {
  it("an unknown path is a 404, whatever the method or body", () => {
    expect(only({ method: "GET", path: "/users/" })).toEqual({ status: 404, type: PROBLEMS.notFound.type });
    expect(only({ method: "GET", path: "/Users" })?.status).toBe(404);
    expect(only(json("POST", "/no-such-route", { a: 1 }))?.status).toBe(404);
    expect(matchTemplate(`/users/${MISSING_ID}`)).toBe("/users/:id");
    expect(matchTemplate(`/users/${MISSING_ID}/orders`)).toBeUndefined();
  });

  it("a method the path does not serve is a 405, before the content type", () => {
    expect(only({ method: "PUT", path: "/users", headers: { "content-type": "text/plain" }, body: "x" })).toEqual({
      status: 405,
      type: PROBLEMS.methodNotAllowed.type,
    });
    expect(expectedFor({ method: "OPTIONS", path: "/health" }, context).template).toBe("/health");
    expect(allowHeader("/health")).toBe("GET, HEAD");
  });

  it("then the content type (415), the size (413), the JSON syntax (400 malformed-json)", () => {
    expect(only(json("POST", "/echo", '{"a":1}', "text/plain"))?.status).toBe(415);
    expect(only(json("POST", "/echo", '{"a":1}', "application/json; charset=latin1"))?.status).toBe(415);
    expect(only(json("PATCH", "/users/not-a-uuid", "{}", "text/plain"))?.status).toBe(415);
    expect(only(json("POST", "/echo", `{"f":"${"x".repeat(1024 * 1024)}"}{`))?.status).toBe(413);
    expect(only(json("POST", "/users", "{'a':1}"))).toEqual({ status: 400, type: PROBLEMS.malformedJson.type });
    expect(only(json("PATCH", "/users/not-a-uuid", "{"))?.type).toBe(PROBLEMS.malformedJson.type);
  });

  it("then validation: params, query, body, headers, non-objects, empty bodies and prototype keys (400)", () => {
    const validation = { status: 400, type: PROBLEMS.validation.type };
    expect(only(json("PATCH", "/users/not-a-uuid", { name: "Fine" }))).toEqual(validation);
    expect(only(json("POST", "/users", { email: "a@example.com", name: "A", role: "admin" }))).toEqual(validation);
    expect(only(json("POST", "/users", { email: "a@example.com", name: "   " }))).toEqual(validation);
    // Trimmed as JavaScript trims (U+FEFF included); lengths in code points, as Zod 4 and JSON Schema count them.
    expect(only(json("POST", "/users", { email: "a@example.com", name: " \uFEFF " }))).toEqual(validation);
    expect(only(json("POST", "/users", { email: "a@example.com", name: "🙂".repeat(101) }))).toEqual(validation);
    expect(statuses(json("POST", "/users", { email: "a@example.com", name: "🙂".repeat(100) }))).toEqual([201, 409]);
    expect(only(json("POST", "/orders", { userId: MISSING_ID, productId: MISSING_ID, quantity: "5" }))).toEqual(
      validation,
    );
    expect(only(json("PATCH", `/users/${MISSING_ID}`, {}))).toEqual(validation);
    expect(only(json("POST", "/echo", "[]"))).toEqual(validation);
    expect(only(json("POST", "/echo", ""))).toEqual(validation);
    expect(only(json("POST", "/echo", '{"a":{"b":[{"__proto__":{"x":1}}]}}'))).toEqual(validation);
    expect(only(json("POST", "/echo", '{"constructor":{"prototype":{"x":1}}}'))).toEqual(validation);
    expect(only(get("/users?limit=1&limit=2"))).toEqual(validation);
    expect(only({ method: "GET", path: "/products?minPriceCents=10&maxPriceCents=5" })).toEqual(validation);
    expect(only(get("/orders?include=user,user"))).toEqual(validation);
    expect(only(get("/users?q=a%00b"))).toEqual(validation);
    const order = json("POST", "/orders", { productId: MISSING_ID, quantity: "1" });
    expect(only({ ...order, headers: { ...order.headers, "idempotency-key": "with space" } })).toEqual(validation);
  });

  it("JSON deeper than 1,000 arrays and objects is malformed; 1,000 levels are accepted", () => {
    const nested = (levels: number) => `{"deep":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;
    expect(statuses(json("POST", "/echo", nested(1000)))).toEqual([200]);
    expect(only(json("POST", "/echo", nested(1001)))).toEqual({ status: 400, type: PROBLEMS.malformedJson.type });
  });

  it("a content-encoding other than identity is a 415; an undecodable path id is a 400, or a 405", () => {
    const body = json("POST", "/echo", { a: 1 });
    expect(only({ ...body, headers: { ...body.headers, "content-encoding": "gzip" } })?.status).toBe(415);
    expect(statuses({ ...body, headers: { ...body.headers, "content-encoding": "identity" } })).toEqual([200]);
    expect(only(get("/users/%zz"))).toEqual({ status: 400, type: PROBLEMS.validation.type });
    expect(only({ method: "PUT", path: "/users/%zz" })?.status).toBe(405);
  });

  it("a valid request gets its route's success or one of the statuses the route table lists", () => {
    expect(statuses(json("POST", "/orders", { productId: MISSING_ID, quantity: 1 }))).toEqual([201, 409, 422]);
    expect(statuses(get(`/users/${MISSING_ID.toUpperCase()}`))).toEqual([200, 404]);
    expect(statuses({ method: "GET", path: "/products?sort=name&inStock=true&q=%25_" })).toEqual([200]);
    expect(statuses({ method: "DELETE", path: `/users/${MISSING_ID}`, headers: { authorization: ADMIN } })).toEqual([
      204, 404, 409,
    ]);
    expect(statuses(json("POST", "/echo", { anything: [1, "two"] }))).toEqual([200]);
    expect(statuses(json("POST", "/echo", '{"a":1}', "application/merge-patch+json"))).toEqual([200]);
  });

  it("GET /auth/me needs a valid bearer token (401 otherwise)", () => {
    expect(only(get("/auth/me", "Bearer tampered"))?.status).toBe(401);
    expect(statuses(get("/auth/me", CUSTOMER))).toEqual([200]);
    expect(expectedFor(get("/auth/me", CUSTOMER), context).owner).toBe(customerId);
  });

  it("allows more where the contract is silent, and says why", () => {
    expect(expectedFor(get("/users?q=%E0%A4"), context).lenient).toMatch(/percent-encoding/);
  });

  it('judges the body\'s bytes as README "Edges of HTTP" decides: UTF-8, one byte-order mark ignored', () => {
    expect(statuses(json("POST", "/echo", `\uFEFF{"a":1}`))).toEqual([200]);
    expect(only(json("POST", "/echo", `\uFEFF\uFEFF{"a":1}`))?.type).toBe("/problems/malformed-json");
    const invalid = Buffer.from([...Buffer.from('{"a":"'), 0xc3, 0x28, ...Buffer.from('"}')]);
    expect(only({ ...json("POST", "/echo", ""), body: invalid })?.type).toBe("/problems/malformed-json");
    // An escaped lone surrogate is a string like any other: no leniency.
    const lone = expectedFor(json("POST", "/users", '{"email":"a@example.com","name":"\\ud800"}'), context);
    expect(lone.lenient).toBeUndefined();
  });

  it("reads content types and query strings as the contract does", () => {
    expect(parseQuery("").malformed).toBe(false);
    expect(isJsonContentType("application/json")).toBe(true);
    expect(isJsonContentType("application/vnd.api+json; charset=UTF-8")).toBe(true);
    expect(isJsonContentType("application/jsonx")).toBe(false);
    expect(isJsonContentType("text/json")).toBe(false);
    expect(isJsonContentType("application/json; charset=utf-16")).toBe(false);
    expect(parseQuery("a=1&a=2&b=%20x&c").values).toEqual({ a: ["1", "2"], b: " x", c: "" });
    expect(parseQuery("q=%zz").malformed).toBe(true);
  });
});

describe("the oracle decides who may call what (docs/api.md, Authorization)", () => {
  const unauthorized = PROBLEMS.unauthorized.type;
  it("the caller comes after routing and before anything about the request: 401, then 403", () => {
    expect(only({ method: "PUT", path: "/products" })?.status).toBe(405);
    expect(only(json("PATCH", "/users/not-a-uuid", "{", "text/plain", ""))).toEqual({
      status: 401,
      type: unauthorized,
      challenge: "missing",
    });
    expect(only(json("POST", "/products", "{", "text/plain", CUSTOMER))).toEqual({
      status: 403,
      type: PROBLEMS.forbidden.type,
      challenge: "insufficient_scope",
    });
    expect(only(get("/users", CUSTOMER))?.status).toBe(403);
    expect(statuses({ ...get(`/orders/${MISSING_ID}`), method: "DELETE" })).toEqual([204, 404]);
    expect(only({ ...get(`/orders/${MISSING_ID}`, CUSTOMER), method: "DELETE" })?.status).toBe(403);
  });

  it("names the challenge of each 401: none for no bearer token, invalid_token for a refused one", () => {
    expect(only(get("/auth/me", ""))?.challenge).toBe("missing");
    expect(only(get("/auth/me", "Basic YTpi"))?.challenge).toBe("missing");
    expect(only(get("/auth/me", "Bearer x.y.z"))?.challenge).toBe("invalid_token");
    expect(only(get("/auth/me", "Bearer"))?.challenge).toBe("any");
  });

  it("a customer reaches only their own rows: another's is a 404, any status but cancelled a 403", () => {
    const other = fixtureUsers.buyer.id;
    expect(only(get(`/users/${other}`, CUSTOMER))).toEqual({ status: 404, type: PROBLEMS.notFound.type });
    expect(only(json("PATCH", `/users/${other}`, { name: "X" }, "application/json", CUSTOMER))?.status).toBe(404);
    expect(statuses(get(`/users/${customerId}`, CUSTOMER))).toEqual([200, 404]);
    expect(only(get(`/orders/${MISSING_ID}`, CUSTOMER))?.status).toBe(404);
    const status = (s: string) => json("PATCH", `/orders/${MISSING_ID}`, { status: s }, "application/json", CUSTOMER);
    expect(only(status("shipped"))?.status).toBe(403);
    expect(only(status("cancelled"))?.status).toBe(404);
    expect(statuses(json("PATCH", `/orders/${MISSING_ID}`, { status: "shipped" }))).toEqual([200, 404, 409]);
    expect(expectedFor(get("/orders?include=user", CUSTOMER), context).owner).toBe(customerId);
    expect(expectedFor(get("/orders?include=user"), context).owner).toBeUndefined();
  });

  it("a role or a userId in a body is a 400 (the bodies are strict)", () => {
    const validation = { status: 400, type: PROBLEMS.validation.type };
    const asCustomer = (method: string, path: string, body: unknown) =>
      json(method, path, body, "application/json", CUSTOMER);
    expect(only(asCustomer("PATCH", `/users/${customerId}`, { role: "admin" }))).toEqual(validation);
    expect(only(asCustomer("POST", "/orders", { userId: MISSING_ID, productId: MISSING_ID, quantity: 1 }))).toEqual(
      validation,
    );
    const register = { email: "a@example.com", name: "A", password: "long-enough", role: "admin" };
    expect(only(json("POST", "/auth/register", register, "application/json", ""))).toEqual(validation);
  });
});

const pools = {
  userIds: [fixtureUsers.buyer.id],
  productIds: [MISSING_ID],
  orderIds: [MISSING_ID],
  emails: [fixtureUsers.buyer.email],
  customer: { id: customerId, role: "customer" as const, token: "customer.token.here" },
  admin: { id: fixtureUsers.admin.id, role: "admin" as const, token: "admin.token.here" },
  jwtSecret: "x".repeat(32),
};

describe("the generated requests", () => {
  it("always go on the wire and always get a verdict", () => {
    fc.assert(
      fc.property(requestArbitrary(pools), (request) => {
        const expected = expectedFor(request.exchange, context);
        expect(expected.answers.length).toBeGreaterThan(0);
        expect(request.exchange.path.startsWith("/")).toBe(true);
      }),
      { numRuns: 300, seed: 1 },
    );
  });

  it("include authorization attacks, and every fixed attack is refused", () => {
    const labels = fc.sample(requestArbitrary(pools), { numRuns: 2000, seed: 2 }).map((r) => r.label);
    for (const attack of ["as the customer", "body.role: admin", "body.userId:"])
      expect(
        labels.some((l) => l.includes(attack)),
        attack,
      ).toBe(true);
    for (const attack of authorizationAttacks(pools)) {
      const { answers } = expectedFor(attack.exchange, context);
      expect(
        answers.every((a) => a.status >= 400 || attack.label.includes("lists")),
        attack.label,
      ).toBe(true);
    }
  });
});
