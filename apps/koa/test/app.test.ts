// The Koa app as Koa apps are tested: supertest on `app.callback()`, the request listener Koa hands to
// node:http, on the fake data access from @api-ref/data-access/testing: no database, no port of our own. Its
// `auth.authenticate` knows two bearer tokens, FAKE_AUTH.customer (FAKE_USER, who owns FAKE_ORDER) and
// FAKE_AUTH.admin (FAKE_ADMIN).
import { Writable } from "node:stream";
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
import { type Logger, pino } from "pino";
import request from "supertest";
import { describe, expect, test } from "vitest";
import { buildApp } from "../src/app.ts";

/** An app of its own (and so limiters of their own), with a rate limit these tests reach only where they mean to. */
const api = (logger: Logger = pino({ level: "silent" }), authRateLimit = 1000) =>
  request(
    buildApp({
      dataAccess: createFakeDataAccess(),
      metrics: createHttpMetrics("koa"),
      logger,
      authRateLimit,
    }).callback(),
  );
const asProblem = ({ status, headers, body }: request.Response) => ({
  status,
  contentType: headers["content-type"],
  body,
});

test("GET /products/:id answers the product from ctx.body as JSON, to anyone", async () => {
  await api().get(`/products/${FAKE_PRODUCT.id}`).expect("content-type", /json/).expect(200, FAKE_PRODUCT);
});

test("POST /users answers an admin 201 with the created user and its location", async () => {
  const res = await api()
    .post("/users")
    .set("authorization", FAKE_AUTH.admin)
    .send({ email: "Grace@Example.com", name: " Grace " })
    .expect(201);
  expect(res.body).toMatchObject({ email: "grace@example.com", name: "Grace", role: "customer" });
  expect(res.headers.location).toBe(`/users/${res.body.id}`);
});

test("an order of zero items fails validation on body.quantity", async () => {
  const res = await api()
    .post("/orders")
    .set("authorization", FAKE_AUTH.customer)
    .send({ productId: MISSING_ID, quantity: 0 });
  expectProblem(asProblem(res), "validation", ["body.quantity"]);
});

test("a missing order and a path no router serves are both not-found problems", async () => {
  expectProblem(
    asProblem(await api().delete(`/orders/${MISSING_ID}`).set("authorization", FAKE_AUTH.admin)),
    "notFound",
  );
  expectProblem(asProblem(await api().get("/Users")), "notFound");
});

test("the JSON-body middleware refuses another media type with 415, before validation", async () => {
  const res = await api()
    .post("/users")
    .set("authorization", FAKE_AUTH.admin)
    .set("content-type", "text/plain")
    .send("email=a");
  expectProblem(asProblem(res), "unsupportedMediaType");
});

describe("authorization: authenticate sets ctx.state.user, requireAdmin checks its role", () => {
  test("no token is a 401 with the plain Bearer challenge", async () => {
    const res = await api().get("/users");
    expectProblem(asProblem(res), "unauthorized");
    expect(res.headers["www-authenticate"]).toBe("Bearer");
  });

  test("a token the data access refuses is a 401 with invalid_token", async () => {
    const res = await api().get("/auth/me").set("authorization", "Bearer not.a.token");
    expectProblem(asProblem(res), "unauthorized");
    expect(res.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
  });

  test("a customer on an admin route is a 403 forbidden, insufficient_scope", async () => {
    const res = await api().get("/users").set("authorization", FAKE_AUTH.customer);
    expectProblem(asProblem(res), "forbidden");
    expect(res.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope"');
  });

  test("an admin lists the users", async () => {
    const res = await api().get("/users").set("authorization", FAKE_AUTH.admin).expect(200);
    expect(res.body.data).toEqual(expect.arrayContaining([FAKE_USER, FAKE_ADMIN]));
  });

  test("a customer reads their own user, and another user's is a 404", async () => {
    await api().get(`/users/${FAKE_USER.id}`).set("authorization", FAKE_AUTH.customer).expect(200, FAKE_USER);
    const res = await api().get(`/users/${FAKE_ADMIN.id}`).set("authorization", FAKE_AUTH.customer);
    expectProblem(asProblem(res), "notFound");
  });

  test("a customer reads their own order", async () => {
    await api().get(`/orders/${FAKE_ORDER.id}`).set("authorization", FAKE_AUTH.customer).expect(200, FAKE_ORDER);
  });

  test("an order placed is the caller's", async () => {
    const res = await api()
      .post("/orders")
      .set("authorization", FAKE_AUTH.admin)
      .send({ productId: FAKE_PRODUCT.id, quantity: 2 })
      .expect(201);
    expect(res.body).toMatchObject({ userId: FAKE_ADMIN.id, productId: FAKE_PRODUCT.id, quantity: 2 });
    expect(res.headers.location).toBe(`/orders/${res.body.id}`);
  });

  test("GET /auth/me answers the caller's own user, not to be cached", async () => {
    const res = await api().get("/auth/me").set("authorization", FAKE_AUTH.customer).expect(200, FAKE_USER);
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  test("register's token is not to be cached; a problem carries no cache-control of its own", async () => {
    const res = await api()
      .post("/auth/register")
      .send({ email: "new@example.com", name: "New", password: "password1" });
    expect(res.status).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
    const refused = await api().post("/auth/login").send({ email: "new@example.com", password: "password1" });
    expectProblem(asProblem(refused), "unauthorized");
    expect(refused.headers["cache-control"]).toBeUndefined();
  });

  test("the role is checked before the body: a customer with malformed JSON on an admin route is a 403", async () => {
    const res = await api()
      .post("/products")
      .set("authorization", FAKE_AUTH.customer)
      .set("content-type", "application/json")
      .send("{oops");
    expectProblem(asProblem(res), "forbidden");
  });

  test("authentication is checked before the media type: no token and text/plain on POST /orders is a 401", async () => {
    const res = await api().post("/orders").set("content-type", "text/plain").send("quantity=1");
    expectProblem(asProblem(res), "unauthorized");
  });

  test("routing still comes first: another method on a known path is a 405 without a token", async () => {
    const res = await api().put("/users");
    expectProblem(asProblem(res), "methodNotAllowed");
  });
});

test("the request log censors the authorization and cookie headers", async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  await api(pino({ level: "info" }, sink))
    .get("/auth/me")
    .set("authorization", FAKE_AUTH.admin)
    .set("cookie", "session=secret-cookie")
    .expect(200);
  const log = lines.join("");
  expect(log).toContain("request completed");
  expect(log).toContain("[Redacted]");
  expect(log).not.toContain(FAKE_AUTH.admin.slice("Bearer ".length));
  expect(log).not.toContain("secret-cookie");
});

describe("the rate limit on register and login (koa-ratelimit, memory driver)", () => {
  const login = { email: FAKE_USER.email, password: "wrong-password" };

  test("past the limit, a 429 too-many-requests with a retry-after in whole seconds, at most the window", async () => {
    const limited = api(undefined, 2);
    for (let i = 0; i < 2; i++) expectProblem(asProblem(await limited.post("/auth/login").send(login)), "unauthorized");
    const res = await limited.post("/auth/login").send(login);
    expectProblem(asProblem(res), "tooManyRequests");
    expect(res.headers["retry-after"]).toMatch(/^\d+$/);
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(AUTH_RATE_WINDOW_SECONDS);
  });

  test("past the limit, the 429 comes before the media type (415) and ignores x-forwarded-for", async () => {
    const limited = api(undefined, 1);
    await limited.post("/auth/register").send({}).expect(400);
    expectProblem(
      asProblem(await limited.post("/auth/register").set("content-type", "text/plain").send("{}")),
      "tooManyRequests",
    );
    const forwarded = await limited.post("/auth/register").set("x-forwarded-for", "203.0.113.7").send({});
    expectProblem(asProblem(forwarded), "tooManyRequests");
  });

  test("each route is counted apart, and routing still comes first (405)", async () => {
    const limited = api(undefined, 1);
    await limited.post("/auth/login").send(login).expect(401);
    expectProblem(asProblem(await limited.post("/auth/login").send(login)), "tooManyRequests");
    await limited
      .post("/auth/register")
      .send({ email: "apart@example.com", name: "Apart", password: "password1" })
      .expect(201);
    expectProblem(asProblem(await limited.get("/auth/login")), "methodNotAllowed");
  });
});

describe("the security headers (koa-helmet)", () => {
  const expectHeaders = (res: request.Response, policy: string) => {
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["content-security-policy"]).toBe(policy);
  };

  test("on a JSON answer, with the API's content-security-policy", async () => {
    expectHeaders(await api().get(`/products/${FAKE_PRODUCT.id}`).expect(200), API_CONTENT_SECURITY_POLICY);
  });

  test("on problems: a 404 no router answered, a 405, a 401 and a 429", async () => {
    const limited = api(undefined, 1);
    await limited.post("/auth/login").send({});
    for (const res of [
      await api().get("/nowhere").expect(404),
      await api().put("/users").expect(405),
      await api().get("/auth/me").expect(401),
      await limited.post("/auth/login").send({}).expect(429),
    ]) {
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expectHeaders(res, API_CONTENT_SECURITY_POLICY);
    }
  });

  test("on /docs, with the page's own policy", async () => {
    expectHeaders(await api().get("/docs").expect(200), docsContentSecurityPolicy());
  });
});
