// The template as Nest teaches it to be tested: a testing module built from its AppModule with the data access
// overridden by the fake of @api-ref/core/testing, which the moved Nest routes and the mounted Express routers both
// get (one DATA_ACCESS provider), and supertest on the initialised application. mixed.test.ts starts the built app
// as a process instead, for what only the real server shows.
import { createFakeDataAccess, expectProblem, FAKE_PRODUCT, FAKE_USER, MISSING_ID } from "@api-ref/core/testing";
import { DATA_ACCESS } from "@api-ref/nestjs/data-access/data-access.module";
import { problemOf, startOn, TEST_CONFIG } from "@api-ref/nestjs/testing";
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

describe("express-to-nestjs", () => {
  it.each([
    ["Nest", `/users/${FAKE_USER.id}`, FAKE_USER],
    ["Express", `/products/${FAKE_PRODUCT.id}`, FAKE_PRODUCT],
  ])("a route %s serves answers from the one data access", async (_, path, expected) => {
    const res = await request(app.getHttpServer()).get(path).expect(200);
    expect(res.body).toEqual(expected);
  });

  it.each([
    ["Nest", "/users", { email: "not-an-address", name: "A" }, ["body.email"]],
    ["Express", "/products", { name: "Lamp", priceCents: -1, stock: 1 }, ["body.priceCents"]],
  ])("a bad body on a route %s serves is the contract's 400", async (_, path, body, paths) => {
    expectProblem(problemOf(await request(app.getHttpServer()).post(path).send(body)), "validation", paths);
  });

  it.each([`/users/${MISSING_ID}`, `/orders/${MISSING_ID}`])("GET %s is the same not-found problem", async (path) => {
    expectProblem(problemOf(await request(app.getHttpServer()).get(path)), "notFound");
  });

  it("/health names the template, /metrics labels both worlds' routes", async () => {
    const server = app.getHttpServer();
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
