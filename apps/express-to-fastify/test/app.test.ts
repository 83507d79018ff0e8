// The template on the fake data access of @api-ref/core/testing, passed to `buildApp()` as apps/fastify's tests
// pass it: one data access serves both worlds, the routes moved to Fastify and the Express routers mounted through
// @fastify/express. Over a real socket (`listen({ port: 0 })`), not `fastify.inject()`: Express swaps the
// prototypes of the raw request and response, and light-my-request's fake ones then lose every body, the Fastify
// routes' included, since Express sees each request first (fastify/fastify-express#54).
import type { AddressInfo } from "node:net";
import { sendTo } from "@api-ref/contract/mixed-state";
import { createFakeDataAccess, expectProblem, FAKE_PRODUCT, FAKE_USER, MISSING_ID } from "@api-ref/core/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../src/app.ts";

const config = {
  databaseUrl: "postgres://unused",
  jwtSecret: "x".repeat(32),
  poolSize: 1,
  logLevel: "silent" as const,
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

describe("express-to-fastify on a fake data access", () => {
  it.each([
    ["Express (not moved yet)", `/users/${FAKE_USER.id}`, FAKE_USER],
    ["Fastify (moved)", `/products/${FAKE_PRODUCT.id}`, FAKE_PRODUCT],
  ])("a route %s answers from the one data access", async (_, path, expected) => {
    const res = await send("GET", path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expected);
  });

  it.each([
    ["Express", "/users", { email: "not-an-address", name: "A" }, ["body.email"]],
    ["Fastify", "/products", { name: "Lamp", priceCents: -1, stock: 1 }, ["body.priceCents"]],
  ])("a bad body on a route %s serves is the contract's 400", async (_, path, body, paths) => {
    expectProblem(await problemFrom(await send("POST", path, JSON.stringify(body))), "validation", paths);
  });

  it.each([`/users/${MISSING_ID}`, `/products/${MISSING_ID}`])(
    "GET %s: the data access's not-found is the same problem in both worlds",
    async (path) => {
      expectProblem(await problemFrom(await send("GET", path)), "notFound");
    },
  );

  it("the request-id hook, Fastify's, answers for an Express route too", async () => {
    const res = await send("GET", `/users/${FAKE_USER.id}`, undefined, { "x-request-id": "abc-123" });
    expect(res.headers.get("x-request-id")).toBe("abc-123");
  });

  it("app.close() runs the onClose hook that closes the one data access once", async () => {
    await app.close();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
