// The Express 4 app as Express apps are tested: supertest on the app object, on the fake data access from
// @api-ref/core/testing (no database). Besides what apps/express's test checks, it checks what Express 4 would get
// wrong without this app's changes: a rejected handler promise, the query parser, a request without a body.
import { createHttpMetrics } from "@api-ref/core";
import { createFakeDataAccess, expectProblem, FAKE_USER, MISSING_ID } from "@api-ref/core/testing";
import { pino } from "pino";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";

const app = buildApp({
  dataAccess: createFakeDataAccess({
    ping: async () => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    },
  }),
  metrics: createHttpMetrics("express"),
  logger: pino({ level: "silent" }),
});
const problemOf = (res: request.Response) => ({
  status: res.status,
  contentType: res.get("content-type"),
  body: res.body,
});

describe("express4 app", () => {
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

  it("a rejected promise in an async handler reaches the error handler (503 for an unreachable database)", async () => {
    const res = await request(app).get("/ready");
    expectProblem(problemOf(res), "unavailable");
    expect(JSON.stringify(res.body)).not.toContain("ECONNREFUSED");
  });

  it("the query parser is `simple`: `filter[name]` stays one unknown key (Express 4's `extended` would nest it)", async () => {
    const res = await request(app).get("/users?filter[name]=a");
    expectProblem(problemOf(res), "validation", ["query.filter[name]"]);
  });

  it("a POST without a body is one error on `body` (body-parser 1 leaves `{}` in req.body)", async () => {
    const res = await request(app).post("/users");
    expectProblem(problemOf(res), "validation", ["body"]);
  });

  it("the request-id middleware echoes a valid x-request-id and makes one up otherwise", async () => {
    await request(app).get("/health").set("x-request-id", "trace.42").expect("x-request-id", "trace.42");
    const res = await request(app).get("/health").set("x-request-id", "a=b");
    expect(res.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
