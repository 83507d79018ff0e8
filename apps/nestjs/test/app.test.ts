// The Nest application as Nest teaches it to be tested: a testing module built from the real AppModule, the data
// access overridden with the fake of @api-ref/core/testing (no database), the application initialised on each
// platform, and supertest on its HTTP server.
import { createFakeDataAccess, expectProblem, FAKE_USER, MISSING_ID } from "@api-ref/core/testing";
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

  it("GET /users/:id answers the user the repository returned", async () => {
    const res = await request(app.getHttpServer()).get(`/users/${FAKE_USER.id}`).expect(200);
    expect(res.body).toEqual(FAKE_USER);
  });

  it("POST /users with a bad e-mail is the contract's 400 from the validation pipe, naming the field", async () => {
    const res = await request(app.getHttpServer()).post("/users").send({ email: "not-an-address", name: "A" });
    expectProblem(problemOf(res), "validation", ["body.email"]);
  });

  it.each([`/users/${MISSING_ID}`, "/nowhere"])("GET %s is a not-found problem from the filter", async (path) => {
    expectProblem(problemOf(await request(app.getHttpServer()).get(path)), "notFound");
  });

  it("the request-context middleware echoes a valid x-request-id", async () => {
    await request(app.getHttpServer())
      .get("/health")
      .set("x-request-id", "trace.42")
      .expect("x-request-id", "trace.42");
  });

  it("closing the application closes the data access once (DataAccessModule's shutdown hook)", async () => {
    expect(close).not.toHaveBeenCalled();
    await app.close();
    expect(close).toHaveBeenCalledTimes(1);
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
      const res = await request(app.getHttpServer()).get(`/users/${FAKE_USER.id}`);
      expect(expectProblem(problemOf(res), "internal").detail).not.toContain("secret");
    } finally {
      await app.close();
    }
  });
});
