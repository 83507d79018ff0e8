// The Koa app as Koa apps are tested: supertest on `app.callback()`, the request listener Koa hands to
// node:http, on the fake data access from @api-ref/core/testing: no database, no port of our own.
import { createHttpMetrics } from "@api-ref/core";
import { createFakeDataAccess, expectProblem, FAKE_PRODUCT, MISSING_ID } from "@api-ref/core/testing";
import { pino } from "pino";
import request from "supertest";
import { expect, test } from "vitest";
import { buildApp } from "../src/app.ts";

const api = () =>
  request(
    buildApp({
      dataAccess: createFakeDataAccess(),
      metrics: createHttpMetrics("koa"),
      logger: pino({ level: "silent" }),
    }).callback(),
  );
const asProblem = ({ status, headers, body }: request.Response) => ({
  status,
  contentType: headers["content-type"],
  body,
});

test("GET /products/:id answers the product from ctx.body as JSON", async () => {
  await api().get(`/products/${FAKE_PRODUCT.id}`).expect("content-type", /json/).expect(200, FAKE_PRODUCT);
});

test("POST /users answers 201 with the created user and its location", async () => {
  const res = await api().post("/users").send({ email: "Grace@Example.com", name: " Grace " }).expect(201);
  expect(res.body).toMatchObject({ email: "grace@example.com", name: "Grace" });
  expect(res.headers.location).toBe(`/users/${res.body.id}`);
});

test("an order of zero items fails validation on body.quantity", async () => {
  const res = await api().post("/orders").send({ userId: MISSING_ID, productId: MISSING_ID, quantity: 0 });
  expectProblem(asProblem(res), "validation", ["body.quantity"]);
});

test("a missing order and a path no router serves are both not-found problems", async () => {
  expectProblem(asProblem(await api().delete(`/orders/${MISSING_ID}`)), "notFound");
  expectProblem(asProblem(await api().get("/Users")), "notFound");
});

test("the JSON-body middleware refuses another media type with 415, before validation", async () => {
  const res = await api().post("/users").set("content-type", "text/plain").send("email=a");
  expectProblem(asProblem(res), "unsupportedMediaType");
});
