// The apps' fake data access and problem assertion: they must fail where the real thing would.
import { PROBLEMS, ProblemError } from "@api-ref/contract";
import { describe, expect, it } from "vitest";
import { createFakeDataAccess, expectProblem, FAKE_ORDER, FAKE_USER, MISSING_ID } from "../src/testing.ts";

describe("createFakeDataAccess", () => {
  it("holds the fixtures and throws the core's not-found problem for other ids", async () => {
    const fake = createFakeDataAccess();
    expect(await fake.orders.get(FAKE_ORDER.id)).toEqual(FAKE_ORDER);
    await expect(fake.users.get(MISSING_ID)).rejects.toMatchObject({ kind: "notFound" });
    await expect(fake.auth.me("Bearer x")).rejects.toBeInstanceOf(ProblemError);
  });

  it("keeps writes, and an override replaces one method only", async () => {
    const fake = createFakeDataAccess({
      users: { list: async () => ({ data: [], page: 1, limit: 1, total: 0, pages: 0 }) },
    });
    await fake.users.remove(FAKE_USER.id);
    await expect(fake.users.get(FAKE_USER.id)).rejects.toMatchObject({ kind: "notFound" });
    expect((await fake.users.list({ page: 1, limit: 1 })).total).toBe(0);
  });
});

describe("expectProblem", () => {
  const body = { ...PROBLEMS.notFound, detail: "No user has that id." };
  const response = { status: 404, contentType: "application/problem+json; charset=utf-8", body };

  it("passes a problem of the kind asked for and returns its body", () => {
    expect(expectProblem(response, "notFound")).toBe(body);
  });

  it.each([
    ["another kind", { ...response }, "validation"],
    ["plain JSON", { ...response, contentType: "application/json" }, "notFound"],
    ["a missing detail", { ...response, body: PROBLEMS.notFound }, "notFound"],
  ] as const)("fails on %s", (_, actual, kind) => {
    expect(() => expectProblem(actual, kind)).toThrow();
  });
});
