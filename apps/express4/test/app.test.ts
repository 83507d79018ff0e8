// The Express 4 app as Express apps are tested: supertest on the app object, on the fake data access from
// @api-ref/data-access/testing (no database). Besides what apps/express's test checks, it checks what Express 4 would
// get wrong without this app's changes: a rejected handler promise, the query parser, a request without a body.
import { API_CONTENT_SECURITY_POLICY, docsContentSecurityPolicy } from "@api-ref/contract";
import {
  createFakeDataAccess,
  expectProblem,
  FAKE_ADMIN,
  FAKE_AUTH,
  FAKE_PRODUCT,
  FAKE_USER,
  MISSING_ID,
} from "@api-ref/data-access/testing";
import { AUTH_RATE_WINDOW_SECONDS, createHttpMetrics } from "@api-ref/server";
import { pino } from "pino";
import request from "supertest";
import { describe, expect, it, vi } from "vitest";
import { buildApp } from "../src/app.ts";

/** An app on the fake data access; its auth rate limit is one no test reaches unless it sets a small one. */
const makeApp = ({
  authRateLimit = 1_000,
  logger = pino({ level: "silent" }),
  dataAccess = createFakeDataAccess(),
} = {}) => buildApp({ dataAccess, metrics: createHttpMetrics("express"), logger, authRateLimit });
const app = makeApp({
  dataAccess: createFakeDataAccess({
    ping: async () => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    },
  }),
});
const problemOf = (res: request.Response) => ({
  status: res.status,
  contentType: res.get("content-type"),
  body: res.body,
});

describe("express4 app", () => {
  it("GET /users/:id answers the caller's own user", async () => {
    const res = await request(app)
      .get(`/users/${FAKE_USER.id}`)
      .set("authorization", FAKE_AUTH.customer)
      .expect("content-type", /^application\/json/)
      .expect(200);
    expect(res.body).toEqual(FAKE_USER);
  });

  it("POST /users with a bad e-mail is the contract's 400, naming the field", async () => {
    const res = await request(app)
      .post("/users")
      .set("authorization", FAKE_AUTH.admin)
      .send({ email: "not-an-address", name: "A" });
    expectProblem(problemOf(res), "validation", ["body.email"]);
  });

  it("GET /users/:id of an id that does not exist is a not-found problem", async () => {
    const res = await request(app).get(`/users/${MISSING_ID}`).set("authorization", FAKE_AUTH.admin);
    expectProblem(problemOf(res), "notFound");
  });

  it("GET /nowhere is a not-found problem, token or none (routing comes first)", async () => {
    expectProblem(problemOf(await request(app).get("/nowhere")), "notFound");
  });

  it("the request-id middleware echoes a valid x-request-id and makes one up otherwise", async () => {
    await request(app).get("/health").set("x-request-id", "trace.42").expect("x-request-id", "trace.42");
    const res = await request(app).get("/health").set("x-request-id", "a=b");
    expect(res.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a rejected promise in an async handler reaches the error handler (503 for an unreachable database)", async () => {
    const res = await request(app).get("/ready");
    expectProblem(problemOf(res), "unavailable");
    expect(JSON.stringify(res.body)).not.toContain("ECONNREFUSED");
  });

  it("the query parser is `simple`: `filter[name]` stays one unknown key (Express 4's `extended` would nest it)", async () => {
    const res = await request(app).get("/users?filter[name]=a").set("authorization", FAKE_AUTH.admin);
    expectProblem(problemOf(res), "validation", ["query.filter[name]"]);
  });

  it("a POST without a body is one error on `body` (body-parser 1 leaves `{}` in req.body)", async () => {
    const res = await request(app).post("/users").set("authorization", FAKE_AUTH.admin);
    expectProblem(problemOf(res), "validation", ["body"]);
  });
});

describe("express4 app: authorization", () => {
  it.each([
    ["GET", "/auth/me"],
    ["GET", "/orders"],
    ["GET", `/users/${FAKE_USER.id}`],
    ["DELETE", `/products/${FAKE_PRODUCT.id}`],
  ])(
    "%s %s without a token is a 401 with the challenge `Bearer` (the refusal reaches Express 4's next)",
    async (method, path) => {
      const res = await request(app)[method === "GET" ? "get" : "delete"](path);
      expectProblem(problemOf(res), "unauthorized");
      expect(res.get("www-authenticate")).toBe("Bearer");
    },
  );

  it("a token that is not valid is a 401 with `invalid_token`", async () => {
    const res = await request(app).get("/auth/me").set("authorization", "Bearer not.a.token");
    expectProblem(problemOf(res), "unauthorized");
    expect(res.get("www-authenticate")).toBe('Bearer error="invalid_token"');
  });

  it("a customer on an admin route is a 403 `forbidden`", async () => {
    const res = await request(app).get("/users").set("authorization", FAKE_AUTH.customer);
    expectProblem(problemOf(res), "forbidden");
    expect(res.get("www-authenticate")).toBe('Bearer error="insufficient_scope"');
  });

  it("an admin lists users and creates a product", async () => {
    const users = await request(app).get("/users").set("authorization", FAKE_AUTH.admin).expect(200);
    expect(users.body.data).toContainEqual(FAKE_ADMIN);
    const body = { name: "Desk", priceCents: 12000, stock: 3 };
    const product = await request(app).post("/products").set("authorization", FAKE_AUTH.admin).send(body);
    expect(product.status).toBe(201);
    expect(product.get("location")).toBe(`/products/${product.body.id}`);
  });

  it("anyone reads products", async () => {
    await request(app).get(`/products/${FAKE_PRODUCT.id}`).expect(200);
  });

  it("a customer reading another user is a 404, as for an id that does not exist", async () => {
    const res = await request(app).get(`/users/${FAKE_ADMIN.id}`).set("authorization", FAKE_AUTH.customer);
    expectProblem(problemOf(res), "notFound");
  });

  it("POST /orders places the order for the caller, and another customer's order is a 404 to them", async () => {
    const placed = await request(app)
      .post("/orders")
      .set("authorization", FAKE_AUTH.admin)
      .send({ productId: FAKE_PRODUCT.id, quantity: 1 })
      .expect(201);
    expect(placed.body.userId).toBe(FAKE_ADMIN.id);
    const res = await request(app).get(`/orders/${placed.body.id}`).set("authorization", FAKE_AUTH.customer);
    expectProblem(problemOf(res), "notFound");
  });

  it("authorization comes before the body: a customer sending malformed JSON to an admin route is a 403", async () => {
    const res = await request(app)
      .post("/products")
      .set("authorization", FAKE_AUTH.customer)
      .set("content-type", "application/json")
      .send("{not json");
    expectProblem(problemOf(res), "forbidden");
  });

  it("authentication comes before the media type: no token and a text body is a 401, not a 415", async () => {
    const res = await request(app).post("/orders").set("content-type", "text/plain").send("hello");
    expectProblem(problemOf(res), "unauthorized");
  });

  it("register and /auth/me answer with `cache-control: no-store`", async () => {
    const body = { email: "lin@example.com", name: "Lin", password: "correct horse" };
    await request(app).post("/auth/register").send(body).expect(201).expect("cache-control", "no-store");
    const me = await request(app)
      .get("/auth/me")
      .set("authorization", FAKE_AUTH.customer)
      .expect(200)
      .expect("cache-control", "no-store");
    expect(me.body).toEqual(FAKE_USER);
  });
});

describe("express4 app: the auth rate limit", () => {
  const credentials = { email: "lin@example.com", password: "correct horse" };

  it("past the limit, login is the contract's 429 with `retry-after` in whole seconds until the window ends", async () => {
    const app = makeApp({ authRateLimit: 2 });
    // Every request counts, whatever its outcome (the fake's login is always a 401).
    await request(app).post("/auth/login").send(credentials).expect(401);
    await request(app).post("/auth/login").send(credentials).expect(401);
    const res = await request(app).post("/auth/login").send(credentials);
    expectProblem(problemOf(res), "tooManyRequests");
    const retryAfter = res.get("retry-after") ?? "";
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(AUTH_RATE_WINDOW_SECONDS);
  });

  it("comes before anything about the request is read: over the limit, another media type is a 429, not a 415", async () => {
    const app = makeApp({ authRateLimit: 1 });
    const textBody = () => request(app).post("/auth/register").set("content-type", "text/plain").send("hello");
    expectProblem(problemOf(await textBody()), "unsupportedMediaType");
    expectProblem(problemOf(await textBody()), "tooManyRequests");
  });

  it("but after routing: another method on a limited path is still its 405", async () => {
    const app = makeApp({ authRateLimit: 1 });
    await request(app).post("/auth/login").send(credentials).expect(401);
    await request(app).post("/auth/login").send(credentials).expect(429);
    expectProblem(problemOf(await request(app).get("/auth/login")), "methodNotAllowed");
  });

  it("counts register and login apart, and limits nothing else", async () => {
    const app = makeApp({ authRateLimit: 1 });
    await request(app).post("/auth/login").send(credentials).expect(401);
    await request(app).post("/auth/login").send(credentials).expect(429);
    const body = { ...credentials, name: "Lin" };
    await request(app).post("/auth/register").send(body).expect(201);
    await request(app).post("/auth/register").send(body).expect(429);
    await request(app).get("/auth/me").set("authorization", FAKE_AUTH.customer).expect(200);
    await request(app).get("/auth/me").set("authorization", FAKE_AUTH.customer).expect(200);
  });
});

describe("express4 app: security headers", () => {
  const expectSecurityHeaders = (res: request.Response, policy = API_CONTENT_SECURITY_POLICY) => {
    expect(res.get("x-content-type-options")).toBe("nosniff");
    expect(res.get("x-frame-options")).toBe("DENY");
    expect(res.get("content-security-policy")).toBe(policy);
  };

  it("are on a JSON answer", async () => {
    expectSecurityHeaders(await request(app).get("/health").expect(200));
  });

  it("are on problems: a 404, a 405, a 401, a 429 and a 503 from a rejected promise", async () => {
    expectSecurityHeaders(await request(app).get("/nowhere").expect(404));
    expectSecurityHeaders(await request(app).delete("/health").expect(405));
    expectSecurityHeaders(await request(app).get("/auth/me").expect(401));
    expectSecurityHeaders(await request(app).get("/ready").expect(503));
    const limited = makeApp({ authRateLimit: 1 });
    await request(limited).post("/auth/login").send({}).expect(400);
    expectSecurityHeaders(await request(limited).post("/auth/login").send({}).expect(429));
  });

  it("are on /docs, whose content-security policy is its page's", async () => {
    const res = await request(app)
      .get("/docs")
      .expect(200)
      .expect("content-type", /^text\/html/);
    expectSecurityHeaders(res, docsContentSecurityPolicy());
  });
});

describe("express4 app: logging", () => {
  /** The app at level info, its log lines captured; `me` can be made to fail as a bug would (a 500, logged). */
  function loggedApp(me?: () => Promise<never>) {
    const lines: string[] = [];
    const app = makeApp({
      dataAccess: createFakeDataAccess(me ? { auth: { me } } : {}),
      logger: pino({ level: "info" }, { write: (line: string) => void lines.push(line) }),
    });
    return { app, output: () => lines.join("") };
  }
  const secretHeaders = { authorization: FAKE_AUTH.customer, cookie: "session=secret-cookie" };
  const token = FAKE_AUTH.customer.slice("Bearer ".length);

  it("the request log leaves out the authorization and cookie headers' values", async () => {
    const { app, output } = loggedApp();
    await request(app).get("/auth/me").set(secretHeaders).expect(200);
    // pino-http writes its line when the response has finished, which can be just after the client has it.
    await vi.waitFor(() => expect(output()).toContain("request completed"));
    expect(output()).toContain('"authorization":"[Redacted]"');
    expect(output()).not.toContain(token);
    expect(output()).not.toContain("secret-cookie");
  });

  it("so does the error logged for a 500, which carries the request too", async () => {
    const { app, output } = loggedApp(async () => {
      throw new Error("a bug");
    });
    expectProblem(problemOf(await request(app).get("/auth/me").set(secretHeaders)), "internal");
    await vi.waitFor(() => expect(output()).toContain("request errored"));
    expect(output()).toContain("unhandled error");
    expect(output()).not.toContain(token);
    expect(output()).not.toContain("secret-cookie");
  });
});
