// The Express app as Express apps are tested: supertest on the app object (it listens on an ephemeral port for
// each request and closes it), on the fake data access from @api-ref/core/testing: no database.
import { createHttpMetrics } from "@api-ref/core";
import { createFakeDataAccess, expectProblem, FAKE_USER, MISSING_ID } from "@api-ref/core/testing";
import { pino } from "pino";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";

const app = buildApp({
  dataAccess: createFakeDataAccess(),
  metrics: createHttpMetrics("express"),
  logger: pino({ level: "silent" }),
});
const problemOf = (res: request.Response) => ({
  status: res.status,
  contentType: res.get("content-type"),
  body: res.body,
});

describe("express app", () => {
  it("GET /users/:id answers the user the data access returned", async () => {
    const res = await request(app)
      .get(`/users/${FAKE_USER.id}`)
      .expect("content-type", /^application\/json/)
      .expect(200);
    expect(res.body).toEqual(FAKE_USER);
  });

  it("POST /users with a bad e-mail is the contract's 400, naming the field", async () => {
    const res = await request(app).post("/users").send({ email: "not-an-address", name: "A" });
    expectProblem(problemOf(res), "validation", ["body.email"]);
  });

  it.each([`/users/${MISSING_ID}`, "/nowhere"])("GET %s is a not-found problem", async (path) => {
    expectProblem(problemOf(await request(app).get(path)), "notFound");
  });

  it("the request-id middleware echoes a valid x-request-id and makes one up otherwise", async () => {
    await request(app).get("/health").set("x-request-id", "trace.42").expect("x-request-id", "trace.42");
    const res = await request(app).get("/health").set("x-request-id", "a=b");
    expect(res.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
