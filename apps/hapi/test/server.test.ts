// The hapi server as hapi teaches testing it: `init()` initialises it without listening and `server.inject()`
// sends requests through the whole lifecycle (extensions, validation, onPreResponse), on the fake data access
// from @api-ref/core/testing: no database, no socket.

import { createHttpMetrics } from "@api-ref/core";
import { createFakeDataAccess, expectProblem, FAKE_ORDER, FAKE_USER, MISSING_ID } from "@api-ref/core/testing";
import type { Server, ServerInjectResponse } from "@hapi/hapi";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { init } from "../src/app.ts";

let server: Server;

beforeEach(async () => {
  server = await init({
    dataAccess: createFakeDataAccess(),
    metrics: createHttpMetrics("hapi"),
    logger: pino({ level: "silent" }),
  });
});

afterEach(async () => {
  await server.stop();
});

const problemIn = (res: ServerInjectResponse) => ({
  status: res.statusCode,
  contentType: res.headers["content-type"],
  body: res.result,
});

describe("GET /orders/{id}", () => {
  it("answers the order the data access returned", async () => {
    const res = await server.inject({ method: "GET", url: `/orders/${FAKE_ORDER.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(res.payload)).toEqual(FAKE_ORDER);
  });

  it("answers a not-found problem for an id the data access does not hold", async () => {
    expectProblem(problemIn(await server.inject(`/orders/${MISSING_ID}`)), "notFound");
  });
});

describe("PATCH /users/{id}", () => {
  it("refuses an empty change with one error on body", async () => {
    const res = await server.inject({ method: "PATCH", url: `/users/${FAKE_USER.id}`, payload: {} });
    expectProblem(problemIn(res), "validation", ["body"]);
  });
});

describe("the request-id extension", () => {
  it("echoes the client's id on a Boom response too (a route hapi has not got)", async () => {
    const res = await server.inject({ url: "/nowhere", headers: { "x-request-id": "trace.42" } });
    expectProblem(problemIn(res), "notFound");
    expect(res.headers["x-request-id"]).toBe("trace.42");
  });
});
