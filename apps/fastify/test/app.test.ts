// The app as Fastify teaches testing it: `buildApp()` then `fastify.inject()` (Light my Request: no socket), in
// each schema mode, on the fake data access from @api-ref/core/testing passed in place of a database.
import { createFakeDataAccess, expectProblem, FAKE_USER, MISSING_ID } from "@api-ref/core/testing";
import type { LightMyRequestResponse } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { SCHEMA_MODES } from "../src/modes/index.ts";

const config = {
  databaseUrl: "postgres://unused",
  jwtSecret: "x".repeat(32),
  poolSize: 1,
  logLevel: "silent" as const,
};
const problemFrom = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  contentType: res.headers["content-type"] as string,
  body: res.json(),
});

describe.each(SCHEMA_MODES)("in %s mode", (mode) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let closed: number;
  beforeEach(async () => {
    closed = 0;
    app = await buildApp({ config, mode, dataAccess: createFakeDataAccess({ close: async () => void closed++ }) });
  });
  afterEach(() => app.close());

  it("GET /users lists the page the data access returned, serialized by the route's response schema", async () => {
    const res = await app.inject({ method: "GET", url: "/users", query: { limit: "1" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [FAKE_USER], page: 1, limit: 1, total: 1, pages: 1 });
  });

  it("a product with a negative price is the contract's 400 from the mode's validator", async () => {
    const res = await app.inject().post("/products").body({ name: "Lamp", priceCents: -1, stock: 1 }).end();
    expectProblem(problemFrom(res), "validation", ["body.priceCents"]);
  });

  it("the data access's not-found and the not-found handler answer the same problem", async () => {
    expectProblem(problemFrom(await app.inject({ url: `/products/${MISSING_ID}` })), "notFound");
    expectProblem(problemFrom(await app.inject({ method: "POST", url: "/users/" })), "notFound");
  });

  it("app.close() runs the onClose hook that closes the data access", async () => {
    await app.ready();
    await app.close();
    expect(closed).toBe(1);
  });
});
