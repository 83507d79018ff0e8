// The template as Nest teaches it to be tested: a testing module built from its AppModule with the data access
// overridden by the fake of @api-ref/data-access/testing, which the moved Nest routes and the mounted Express routers
// both get (one DATA_ACCESS provider), and supertest on the initialised application. mixed.test.ts starts the built app
// as a process instead, for what only the real server shows.
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
import { DATA_ACCESS } from "@api-ref/nestjs/data-access/data-access.module";
import { problemOf, startOn, TEST_CONFIG } from "@api-ref/nestjs/testing";
import { AUTH_RATE_WINDOW_SECONDS } from "@api-ref/server";
import type { INestApplication } from "@nestjs/common";
import { Test } from "@nestjs/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppModule } from "../src/app.module.ts";

const dataAccess = createFakeDataAccess();
const close = vi.spyOn(dataAccess, "close");
let app: INestApplication;

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(TEST_CONFIG)] })
    .overrideProvider(DATA_ACCESS)
    .useValue(dataAccess)
    .compile();
  app = await startOn("express", moduleRef);
});
afterAll(async () => {
  await app?.close();
});

const http = () => request(app.getHttpServer());

describe("express-to-nestjs", () => {
  it.each([
    ["Nest", `/users/${FAKE_USER.id}`, FAKE_USER],
    ["Express", `/orders/${FAKE_ORDER.id}`, FAKE_ORDER],
  ])(
    "one customer's token is honoured by a route %s serves, which answers from the one data access",
    async (_, path, expected) => {
      const res = await http().get(path).set("authorization", FAKE_AUTH.customer).expect(200);
      expect(res.body).toEqual(expected);
    },
  );

  it.each([
    ["Nest", "/users", { email: "not-an-address", name: "A" }, ["body.email"]],
    ["Express", "/products", { name: "Lamp", priceCents: -1, stock: 1 }, ["body.priceCents"]],
  ])("a bad body on a route %s serves is the contract's 400", async (_, path, body, paths) => {
    const res = await http().post(path).set("authorization", FAKE_AUTH.admin).send(body);
    expectProblem(problemOf(res), "validation", paths);
  });

  it.each([`/users/${MISSING_ID}`, `/orders/${MISSING_ID}`])("GET %s is the same not-found problem", async (path) => {
    expectProblem(problemOf(await http().get(path).set("authorization", FAKE_AUTH.admin)), "notFound");
  });

  describe("auth in both worlds: Nest's guards, Express's middleware", () => {
    it.each([
      ["Nest", `/users/${FAKE_USER.id}`],
      ["Express", `/orders/${FAKE_ORDER.id}`],
    ])("no token on a route %s serves is the 401 with a plain Bearer challenge", async (_, path) => {
      const res = await http().get(path);
      expectProblem(problemOf(res), "unauthorized");
      expect(res.headers["www-authenticate"]).toBe("Bearer");
    });

    it.each([
      ["Nest", "/users"],
      ["Express", "/products"],
    ])("a customer on an admin route %s serves is the 403, before its malformed body is read", async (_, path) => {
      const res = await http()
        .post(path)
        .set("authorization", FAKE_AUTH.customer)
        .set("content-type", "application/json")
        .send('{"name":');
      expectProblem(problemOf(res), "forbidden");
      expect(res.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope"');
    });

    it.each([
      ["Nest", `/users/${FAKE_ADMIN.id}`],
      ["Express", `/orders/${FAKE_ORDER.id}`],
    ])("an admin reads another user's row on a route %s serves", async (_, path) => {
      await http().get(path).set("authorization", FAKE_AUTH.admin).expect(200);
    });

    it("a customer reading another user's row gets the 404 of a row that does not exist", async () => {
      expectProblem(
        problemOf(await http().get(`/users/${FAKE_ADMIN.id}`).set("authorization", FAKE_AUTH.customer)),
        "notFound",
      );
    });

    it("Nest's global guard leaves the Express routes alone: their public routes need no token", async () => {
      const res = await http().get(`/products/${FAKE_PRODUCT.id}`).expect(200);
      expect(res.body).toEqual(FAKE_PRODUCT);
    });

    it("GET /auth/me, still on Express, answers the caller of the token Nest's routes take", async () => {
      const res = await http().get("/auth/me").set("authorization", FAKE_AUTH.customer).expect(200);
      expect(res.body).toEqual(FAKE_USER);
      expect(res.headers["cache-control"]).toBe("no-store");
    });
  });

  // helmet runs once, on the one Express instance, before either world: each response has each header once, with
  // the contract's value (a second copy would read "DENY, DENY").
  describe("security headers in both worlds", () => {
    const headersOf = (res: request.Response, csp = API_CONTENT_SECURITY_POLICY) => {
      expect(res.headers["x-content-type-options"]).toBe(SECURITY_HEADERS["x-content-type-options"]);
      expect(res.headers["x-frame-options"]).toBe(SECURITY_HEADERS["x-frame-options"]);
      expect(res.headers["content-security-policy"]).toBe(csp);
    };

    it.each([
      ["Nest", `/users/${FAKE_USER.id}`],
      ["Express", `/orders/${FAKE_ORDER.id}`],
    ])("on a JSON answer %s serves", async (_, path) => {
      headersOf(await http().get(path).set("authorization", FAKE_AUTH.customer).expect(200));
    });

    it.each([
      ["Nest's filter: a 404", () => http().get(`/users/${MISSING_ID}`).set("authorization", FAKE_AUTH.admin), 404],
      ["Nest's filter: a 405", () => http().put("/health"), 405],
      ["Nest's filter: a 404 on no route", () => http().get("/nowhere"), 404],
      ["Express's error middleware: a 401", () => http().get("/auth/me"), 401],
      ["Express's error middleware: a 405", () => http().put("/products"), 405],
    ] as const)("on a problem from %s", async (_, send, status) => {
      headersOf(await send().expect(status));
    });

    it("/docs (Nest) has its page's policy instead of the API's", async () => {
      headersOf(await http().get("/docs").expect(200), docsContentSecurityPolicy());
    });
  });

  it("/health names the template, /metrics labels both worlds' routes", async () => {
    const server = app.getHttpServer();
    await request(server).get(`/products/${FAKE_PRODUCT.id}`).expect(200);
    expect((await request(server).get("/health").expect(200)).body.framework).toBe("express-to-nestjs");
    const metrics = (await request(server).get("/metrics")).text;
    expect(metrics).toMatch(/^http_requests_total\{[^}]*route="\/users\/:id"/m);
    expect(metrics).toMatch(/^http_requests_total\{[^}]*route="\/products\/:id"/m);
  });

  it("closing the application closes the one data access once", async () => {
    await app.close();
    expect(close).toHaveBeenCalledTimes(1);
  });
});

// Register and login are still Express's: apps/express's express-rate-limit, per route, with the configured limit.
describe("the rate limit of the Express auth routes", () => {
  const LIMIT = 2;
  let limited: INestApplication;
  const send = () => request(limited.getHttpServer());
  const wrongLogin = () => send().post("/auth/login").send({ email: FAKE_USER.email, password: "wrong-password" });

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.forRoot({ ...TEST_CONFIG, authRateLimit: LIMIT })],
    })
      .overrideProvider(DATA_ACCESS)
      .useValue(createFakeDataAccess())
      .compile();
    limited = await startOn("express", moduleRef);
  });
  afterAll(async () => {
    await limited?.close();
  });

  const expectLimited = (res: request.Response) => {
    expectProblem(problemOf(res), "tooManyRequests");
    expect(res.headers["retry-after"]).toMatch(/^\d+$/);
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(AUTH_RATE_WINDOW_SECONDS);
    expect(res.headers["x-frame-options"]).toBe("DENY");
  };

  it(`answers ${LIMIT} logins as usual and the next with a 429, before its body is read`, async () => {
    for (let i = 0; i < LIMIT; i++) expectProblem(problemOf(await wrongLogin()), "unauthorized");
    expectLimited(await wrongLogin());
    expectLimited(await send().post("/auth/login").set("content-type", "text/plain").send("{}"));
  });

  it("counts register apart from login", async () => {
    expectProblem(problemOf(await send().post("/auth/register").send({})), "validation");
    expectProblem(problemOf(await send().post("/auth/register").send({})), "validation");
    expectLimited(await send().post("/auth/register").send({}));
  });

  it("limits none of Nest's routes", async () => {
    for (let i = 0; i < LIMIT * 2; i++) await send().get("/health").expect(200);
  });
});
