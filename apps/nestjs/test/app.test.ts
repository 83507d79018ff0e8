// The Nest application as Nest teaches it to be tested: a testing module built from the real AppModule, the data
// access overridden with the fake of @api-ref/data-access/testing (no database), the application initialised on each
// platform, and supertest on its HTTP server.
import { API_CONTENT_SECURITY_POLICY, docsContentSecurityPolicy, routes, SECURITY_HEADERS } from "@api-ref/contract";
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
import type { INestApplication } from "@nestjs/common";
import { Test } from "@nestjs/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppModule } from "../src/app.module.ts";
import { PLATFORMS } from "../src/config.ts";
import { DATA_ACCESS, UsersRepository } from "../src/data-access/data-access.module.ts";
import { problemOf, startOn, TEST_CONFIG } from "../src/testing.ts";

describe.each(PLATFORMS)("nestjs on %s", (platform) => {
  const dataAccess = createFakeDataAccess();
  const close = vi.spyOn(dataAccess, "close");
  let app: INestApplication;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(TEST_CONFIG, platform)] })
      .overrideProvider(DATA_ACCESS)
      .useValue(dataAccess)
      .compile();
    app = await startOn(platform, moduleRef);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("GET /users/:id answers the caller's own user", async () => {
    const res = await http().get(`/users/${FAKE_USER.id}`).set("authorization", FAKE_AUTH.customer).expect(200);
    expect(res.body).toEqual(FAKE_USER);
  });

  it("POST /users with a bad e-mail is the contract's 400 from the validation pipe, naming the field", async () => {
    const res = await http()
      .post("/users")
      .set("authorization", FAKE_AUTH.admin)
      .send({ email: "not-an-address", name: "A" });
    expectProblem(problemOf(res), "validation", ["body.email"]);
  });

  it.each([`/users/${MISSING_ID}`, "/nowhere"])("GET %s is a not-found problem from the filter", async (path) => {
    expectProblem(problemOf(await http().get(path).set("authorization", FAKE_AUTH.admin)), "notFound");
  });

  it("the request-context middleware echoes a valid x-request-id", async () => {
    await http().get("/health").set("x-request-id", "trace.42").expect("x-request-id", "trace.42");
  });

  describe("authorization (AuthGuard, RolesGuard)", () => {
    it("no token is the contract's 401 with a plain Bearer challenge", async () => {
      const res = await http().get(`/users/${FAKE_USER.id}`);
      expectProblem(problemOf(res), "unauthorized");
      expect(res.headers["www-authenticate"]).toBe("Bearer");
    });

    it("a token the data access refuses is a 401 with the invalid_token challenge", async () => {
      const res = await http().get("/auth/me").set("authorization", "Bearer a.b.c");
      expectProblem(problemOf(res), "unauthorized");
      expect(res.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
    });

    it("a customer on an admin route is the contract's 403 with the insufficient_scope challenge", async () => {
      const res = await http().get("/users").set("authorization", FAKE_AUTH.customer);
      expectProblem(problemOf(res), "forbidden");
      expect(res.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope"');
    });

    it("an admin on an admin route is served", async () => {
      const res = await http().get("/users").set("authorization", FAKE_AUTH.admin).expect(200);
      expect(res.body.data).toEqual(expect.arrayContaining([FAKE_USER, FAKE_ADMIN]));
    });

    it("a customer reading another user's row gets the 404 of a row that does not exist", async () => {
      const res = await http().get(`/users/${FAKE_ADMIN.id}`).set("authorization", FAKE_AUTH.customer);
      expectProblem(problemOf(res), "notFound");
    });

    it("an admin reads a customer's order", async () => {
      const res = await http().get(`/orders/${FAKE_ORDER.id}`).set("authorization", FAKE_AUTH.admin).expect(200);
      expect(res.body).toEqual(FAKE_ORDER);
    });

    // The guards run before the @JsonBody() interceptor and the validation pipe: a caller who may not call a route
    // learns nothing about its body.
    it.each([
      ["no token", undefined, "unauthorized"],
      ["a customer's token", FAKE_AUTH.customer, "forbidden"],
    ] as const)("%s and malformed JSON on an admin route is refused before the body is read", async (_, auth, kind) => {
      const req = http().post("/products").set("content-type", "application/json");
      if (auth) req.set("authorization", auth);
      expectProblem(problemOf(await req.send('{"name":')), kind);
    });

    it("a customer's malformed JSON on a route they may call is the 400 malformed-json", async () => {
      const res = await http()
        .post("/orders")
        .set("authorization", FAKE_AUTH.customer)
        .set("content-type", "application/json")
        .send('{"productId":');
      expectProblem(problemOf(res), "malformedJson");
    });

    it("POST /orders places the order for the caller; a userId in the body is an unknown field", async () => {
      const body = { productId: FAKE_PRODUCT.id, quantity: 1 };
      const res = await http().post("/orders").set("authorization", FAKE_AUTH.customer).send(body).expect(201);
      expect(res.body).toMatchObject({ ...body, userId: FAKE_USER.id });
      expect(res.headers.location).toBe(`/orders/${res.body.id}`);
      const withUser = await http()
        .post("/orders")
        .set("authorization", FAKE_AUTH.customer)
        .send({ ...body, userId: FAKE_ADMIN.id });
      expectProblem(problemOf(withUser), "validation", ["body.userId"]);
    });

    it("GET /auth/me answers the caller (@CurrentUser()), not to be stored", async () => {
      const res = await http().get("/auth/me").set("authorization", FAKE_AUTH.admin).expect(200);
      expect(res.body).toEqual(FAKE_ADMIN);
      expect(res.headers["cache-control"]).toBe("no-store");
    });

    it("POST /auth/register is public and its token response is not to be stored", async () => {
      const res = await http()
        .post("/auth/register")
        .send({ email: "new@example.com", name: "New", password: "a-long-password" })
        .expect(201);
      expect(res.body.user).toMatchObject({ email: "new@example.com", role: "customer" });
      expect(res.headers["cache-control"]).toBe("no-store");
    });

    it("a refused login is the 401 without cache-control (only token responses carry it)", async () => {
      const res = await http().post("/auth/login").send({ email: FAKE_USER.email, password: "wrong-password" });
      expectProblem(problemOf(res), "unauthorized");
      expect(res.headers["cache-control"]).toBeUndefined();
    });

    // Every route of the contract's table, as its `access` says: without a token, a public one answers and any
    // other is a 401; with a customer's token, an admin route is a 403 and any other is not. Ids that match no row
    // and empty bodies, so that nothing is written.
    const target = (path: string) => path.replace(":id", MISSING_ID);
    const send = (method: string, path: string, authorization?: string) => {
      const req = http()[method.toLowerCase() as "get"](target(path));
      if (authorization) req.set("authorization", authorization);
      return method === "POST" || method === "PATCH" ? req.send({}) : req;
    };
    it.each(routes.map((r) => [r.method, r.path, r.access] as const))(
      "%s %s (%s) without a token",
      async (method, path, access) => {
        const res = await send(method, path);
        if (access === "public") expect(res.status).not.toBe(401);
        else expect(res.status, JSON.stringify(res.body)).toBe(401);
      },
    );
    it.each(routes.filter((r) => r.access !== "public").map((r) => [r.method, r.path, r.access] as const))(
      "%s %s (%s) with a customer's token",
      async (method, path, access) => {
        const res = await send(method, path, FAKE_AUTH.customer);
        if (access === "admin") expect(res.status, JSON.stringify(res.body)).toBe(403);
        else expect([401, 403]).not.toContain(res.status);
      },
    );

    it("a refused request is counted under its route template", async () => {
      await http().get(`/orders/${FAKE_ORDER.id}`).expect(401);
      const metrics = (await http().get("/metrics")).text;
      expect(metrics).toMatch(/^http_requests_total\{[^}]*route="\/orders\/:id"[^}]*status="401"/m);
    });
  });

  // helmet (Express) and @fastify/helmet (Fastify) with the contract's values, on whatever answers: a handler, the
  // filter (a guard's 401, the router's 404 and 405) or the router itself (an undecodable path on Fastify).
  describe("security headers", () => {
    const headersOf = (res: request.Response, csp: string) => {
      expect(res.headers["x-content-type-options"]).toBe(SECURITY_HEADERS["x-content-type-options"]);
      expect(res.headers["x-frame-options"]).toBe(SECURITY_HEADERS["x-frame-options"]);
      expect(res.headers["content-security-policy"]).toBe(csp);
    };

    it("on a JSON answer", async () => {
      headersOf(await http().get("/health").expect(200), API_CONTENT_SECURITY_POLICY);
    });

    it.each([
      ["a 401 from AuthGuard", () => http().get("/auth/me"), 401],
      ["a 404 from the filter", () => http().get("/nowhere"), 404],
      ["a 404 for a path spelled otherwise (/%75sers)", () => http().get("/%75sers"), 404],
      ["a 405 from the filter", () => http().put("/health"), 405],
      ["a 400 for an undecodable path", () => http().get("/users/%zz").set("authorization", FAKE_AUTH.admin), 400],
      ["a 415 from @JsonBody()", () => http().post("/echo").set("content-type", "text/plain").send("{}"), 415],
    ] as const)("on a problem: %s", async (_, send, status) => {
      headersOf(await send().expect(status), API_CONTENT_SECURITY_POLICY);
    });

    it("/docs has its page's policy instead of the API's", async () => {
      headersOf(await http().get("/docs").expect(200), docsContentSecurityPolicy());
    });
  });

  it("closing the application closes the data access once (DataAccessModule's shutdown hook)", async () => {
    expect(close).not.toHaveBeenCalled();
    await app.close();
    expect(close).toHaveBeenCalledTimes(1);
  });
});

// The throttler's guard on register and login, with a limit of 2 so that the third request is refused. Each test
// spends what it needs: the counts (per route, per client address) live as long as the application.
describe.each(PLATFORMS)("the rate limit of POST /auth/register and POST /auth/login on %s", (platform) => {
  const LIMIT = 2;
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const wrongLogin = () => http().post("/auth/login").send({ email: FAKE_USER.email, password: "wrong-password" });

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.forRoot({ ...TEST_CONFIG, authRateLimit: LIMIT }, platform)],
    })
      .overrideProvider(DATA_ACCESS)
      .useValue(createFakeDataAccess())
      .compile();
    app = await startOn(platform, moduleRef);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The contract's 429: a problem, a `retry-after` in whole seconds within the window, and the security headers. */
  const expectLimited = (res: request.Response) => {
    expectProblem(problemOf(res), "tooManyRequests");
    expect(res.headers["retry-after"]).toMatch(/^\d+$/);
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(AUTH_RATE_WINDOW_SECONDS);
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["content-security-policy"]).toBe(API_CONTENT_SECURITY_POLICY);
  };

  it(`answers ${LIMIT} logins as usual, whatever their outcome, and the next with a 429 and a retry-after`, async () => {
    for (let i = 0; i < LIMIT; i++) expectProblem(problemOf(await wrongLogin()), "unauthorized");
    expectLimited(await wrongLogin());
  });

  // The guard runs before @JsonBody() and the pipes: past the limit, nothing about the request is read.
  it("past the limit, a text/plain body is the 429, not the 415", async () => {
    expectLimited(await http().post("/auth/login").set("content-type", "text/plain").send("{}"));
  });

  it("past the limit, a forwarding header naming another address changes nothing", async () => {
    expectLimited(await wrongLogin().set("x-forwarded-for", "203.0.113.7"));
  });

  it("past the limit, another method on the path is still the 405 (routing comes first)", async () => {
    expectProblem(problemOf(await http().get("/auth/login")), "methodNotAllowed");
  });

  it("register is counted apart from login", async () => {
    const registration = (i: number) => ({ email: `limited-${i}@example.com`, name: "L", password: "a-long-password" });
    await http().post("/auth/register").send(registration(1)).expect(201);
    expectProblem(problemOf(await http().post("/auth/register").send({})), "validation");
    expectLimited(await http().post("/auth/register").send(registration(2)));
  });

  it("the other routes are not limited", async () => {
    for (let i = 0; i < LIMIT * 2; i++) {
      await http().get("/health").expect(200);
      await http().get("/auth/me").set("authorization", FAKE_AUTH.customer).expect(200);
    }
  });
});

describe("one repository overridden", () => {
  it("a repository that fails unexpectedly is the filter's 500 problem, without details", async () => {
    const users = { ...createFakeDataAccess().users, get: async () => Promise.reject(new Error("secret detail")) };
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(TEST_CONFIG, "express")] })
      .overrideProvider(DATA_ACCESS)
      .useValue(createFakeDataAccess())
      .overrideProvider(UsersRepository)
      .useValue(users)
      .compile();
    const app = await startOn("express", moduleRef);
    try {
      const res = await request(app.getHttpServer())
        .get(`/users/${FAKE_USER.id}`)
        .set("authorization", FAKE_AUTH.customer);
      expect(expectProblem(problemOf(res), "internal").detail).not.toContain("secret");
    } finally {
      await app.close();
    }
  });
});
