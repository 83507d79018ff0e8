// The abuse limit on POST /auth/register and POST /auth/login (docs/api.md "Abuse limits"), over real HTTP: every
// implementation, started for this file on its own copy of the seed with AUTH_RATE_LIMIT=3 (the suite's other
// instances get a limit they never reach), answers the 4th request to a route from one address in a window with a
// 429 too-many-requests and a `retry-after`, before anything about the request is read (after routing), counts
// each of the two routes apart, and limits nothing else.
//
// The window is 60 s, fixed. The checks run one after another within seconds of the instance's start, inside its
// first window, and never wait for it to end: `retry-after` is checked to be at most the window instead.
import { randomBytes } from "node:crypto";
import { fixtureUsers, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { type PostgresServer, provisionPostgres } from "@api-ref/db/provision";
import { implementations, launch, NEEDS, type RunningImplementation } from "@api-ref/harness";
import type { Response } from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROBLEMS, type ProblemKind } from "../src/index.ts";
import { jsonOfSize, MiB } from "./support/error-cases.ts";
import {
  asResponse,
  describeResponse,
  expectProblem,
  expectStatus,
  rawRequest,
  uniqueEmail,
} from "./support/http-asserts.ts";
import { expectSecurityHeaders } from "./support/security-asserts.ts";
import { bearerOf, contract, http, targets } from "./targets.ts";

/** The limit this file starts every instance with: small, so that a few requests reach it. */
const LIMIT = 3;
/** AUTH_RATE_WINDOW_SECONDS (@api-ref/server): no `retry-after` can be longer. */
const WINDOW_SECONDS = 60;

// Implementations this run started (and so built); none in URL mode, where the server is someone else's and its
// limit is what it was started with.
const started = implementations.filter((i) => contract.adminUrl !== null && targets.some((t) => t.name === i.name));

let server: PostgresServer | undefined;
const running: RunningImplementation[] = [];

afterAll(async () => {
  await Promise.allSettled(running.map((r) => r.stop()));
  await server?.stop();
});

/** A 429 too-many-requests problem whose `retry-after` is whole seconds, at least 1 and at most the window. */
function expectLimited(res: Response) {
  expectProblem(res, "tooManyRequests");
  const retryAfter = res.headers["retry-after"];
  expect(retryAfter, `retry-after of ${describeResponse(res)}`).toMatch(/^\d+$/);
  const seconds = Number(retryAfter);
  expect(seconds, `retry-after of ${describeResponse(res)}`).toBeGreaterThanOrEqual(1);
  expect(seconds, `retry-after of ${describeResponse(res)}`).toBeLessThanOrEqual(WINDOW_SECONDS);
}

describe.each(targets)("$name", (target) => {
  const impl = started.find((i) => i.name === target.name);
  if (!impl) {
    it(`limits POST /auth/login and POST /auth/register to AUTH_RATE_LIMIT=${LIMIT} a window`, (ctx) => {
      ctx.skip(NEEDS.ownInstances);
    });
    return;
  }

  let app: RunningImplementation;
  beforeAll(async () => {
    const { adminUrl, template } = contract;
    if (!adminUrl || !template) throw new Error("the rate-limit checks need the suite's database server");
    server ??= await provisionPostgres({ env: { PG_PROVIDER: "env", DATABASE_URL: adminUrl }, log() {} });
    const name = `ratelimit_${impl.name.toLowerCase().replace(/[^a-z0-9]/g, "_")}_${randomBytes(3).toString("hex")}`;
    const databaseUrl = await server.createDatabase(name.slice(0, 63), { template });
    app = await launch(impl, { databaseUrl, jwtSecret: contract.jwtSecret, env: { AUTH_RATE_LIMIT: String(LIMIT) } });
    running.push(app);
  });

  const api = () => http(app);
  const raw = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    asResponse(await rawRequest(app, method, path, headers, body), method, path);
  const wrongLogin = () =>
    api()
      .post("/auth/login")
      .send({ email: fixtureUsers.buyer.email, password: `${SEED_PASSWORD}x` });
  const registration = () => ({
    email: uniqueEmail("ratelimit"),
    name: "Rate Limited",
    password: "long-enough-password",
  });

  /**
   * Sends `send` until it is answered with a 429 (at most LIMIT + 1 times): the route's allowance is then spent,
   * whether or not the checks before ran (a run filtered with -t).
   */
  const spend = async (route: string, send: () => Promise<Response>) => {
    for (let i = 0; i <= LIMIT; i++) if ((await send()).status === 429) return;
    throw new Error(`${route}: no 429 after ${LIMIT + 1} requests`);
  };
  const spendLogin = () => spend("POST /auth/login", wrongLogin);
  const spendRegister = () => spend("POST /auth/register", () => api().post("/auth/register").send({}));

  describe("POST /auth/login", () => {
    // The first check of the file: the instance has counted no login yet.
    it(`answers ${LIMIT} failed logins from one address with 401s, the next with a 429 too-many-requests and a retry-after of 1–${WINDOW_SECONDS} s`, async () => {
      for (let i = 1; i <= LIMIT; i++) expectProblem(await wrongLogin(), "unauthorized");
      expectLimited(await wrongLogin());
    });

    it("the 429 carries the security headers", async () => {
      await spendLogin();
      expectSecurityHeaders(await wrongLogin(), "api");
    });

    // Past the limit nothing about the request is read: not its content type, size, syntax, fields or credentials,
    // nor a forwarding header claiming another address.
    it.each([
      [
        "a text/plain body (else a 415)",
        () => raw("POST", "/auth/login", { "content-type": "text/plain" }, '{"email":"a@example.com"}'),
      ],
      [
        "a body of 1 MiB and one byte (else a 413)",
        () => raw("POST", "/auth/login", { "content-type": "application/json" }, jsonOfSize(MiB + 1)),
      ],
      [
        "malformed JSON (else a 400 malformed-json)",
        () => raw("POST", "/auth/login", { "content-type": "application/json" }, '{"email":'),
      ],
      ["a body that fails validation (else a 400)", () => api().post("/auth/login").send({ email: "not-an-email" })],
      [
        "the right credentials (else a 200)",
        () => api().post("/auth/login").send({ email: fixtureUsers.buyer.email, password: SEED_PASSWORD }),
      ],
      [
        "an x-forwarded-for naming another address",
        () =>
          api()
            .post("/auth/login")
            .set("x-forwarded-for", "203.0.113.7")
            .send({ email: fixtureUsers.buyer.email, password: SEED_PASSWORD }),
      ],
    ] as Array<[string, () => Promise<Response>]>)("past the limit, %s is still a 429", async (_, send) => {
      await spendLogin();
      expectLimited(await send());
    });

    it("past the limit, GET /auth/login is still a 405 (routing comes before the limit)", async () => {
      await spendLogin();
      expectProblem(await api().get("/auth/login"), "methodNotAllowed");
    });
  });

  describe("POST /auth/register, counted apart from login", () => {
    // Before this, the instance has counted no registration (spend() above sends none).
    it(`after login's limit, answers ${LIMIT} requests as usual, whatever their outcome, and the next with a 429`, async () => {
      await spendLogin();
      // LIMIT (3) requests: one that registers, then refused ones (a validation error, a taken e-mail), which count
      // the same.
      expectStatus(await api().post("/auth/register").send(registration()), 201);
      expectStatus(await api().post("/auth/register").send({}), 400);
      const taken = { ...registration(), email: fixtureUsers.buyer.email };
      expectProblem(await api().post("/auth/register").send(taken), "conflict");
      expectLimited(await api().post("/auth/register").send(registration()));
    });

    it("past the limit, a text/plain body is still a 429 (else a 415)", async () => {
      await spendRegister();
      expectLimited(await raw("POST", "/auth/register", { "content-type": "text/plain" }, "{}"));
    });
  });

  describe("the other routes are never limited", () => {
    // A row that never limits has failed the checks above already: a failing hook here would hide these checks
    // as skipped.
    beforeAll(async () => {
      await spendLogin().catch(() => {});
      await spendRegister().catch(() => {});
    });
    // Each sent more times than the limit, after both auth routes reached theirs.
    const unlimited: Array<[string, ProblemKind | number, () => Promise<Response>]> = [
      ["GET /health", 200, () => api().get("/health")],
      ["GET /products", 200, () => api().get("/products")],
      ["POST /echo", 200, () => api().post("/echo").send({ probe: 1 })],
      ["GET /auth/me", 200, () => api().get("/auth/me").set("authorization", bearerOf(target, "admin"))],
      ["GET /auth/me without a token", "unauthorized", () => api().get("/auth/me")],
      [
        "POST /users as the admin with an invalid body",
        "validation",
        () => api().post("/users").set("authorization", bearerOf(target, "admin")).send({}),
      ],
      ["GET on an unknown path", "notFound", () => api().get("/no-such-route")],
    ];
    it.each(unlimited)(`%s answers as usual ${LIMIT * 2} times in a row`, async (_, expected, send) => {
      for (let i = 0; i < LIMIT * 2; i++) {
        const res = await send();
        expectStatus(res, typeof expected === "number" ? expected : PROBLEMS[expected].status);
      }
    });
  });
});
