// The apps' fake data access and problem assertion: they must fail where the real thing would.
import { PROBLEMS, type ProblemError } from "@api-ref/contract";
import { describe, expect, it } from "vitest";
import {
  createFakeDataAccess,
  expectProblem,
  FAKE_ADMIN,
  FAKE_AUTH,
  FAKE_ORDER,
  FAKE_USER,
  MISSING_ID,
} from "../src/testing.ts";

const customer = { id: FAKE_USER.id, role: "customer" } as const;
const admin = { id: FAKE_ADMIN.id, role: "admin" } as const;

describe("createFakeDataAccess", () => {
  it("holds the fixtures and throws the real data access's not-found problem for other ids", async () => {
    const fake = createFakeDataAccess();
    expect(await fake.orders.get(FAKE_ORDER.id, undefined, customer)).toEqual(FAKE_ORDER);
    await expect(fake.users.get(MISSING_ID, admin)).rejects.toMatchObject({ kind: "notFound" });
  });

  it("authenticates FAKE_AUTH's headers and refuses others as the real one does", async () => {
    const fake = createFakeDataAccess();
    expect(await fake.auth.authenticate(FAKE_AUTH.customer)).toEqual(customer);
    expect(await fake.auth.authenticate(FAKE_AUTH.admin)).toEqual(admin);
    const missing = await fake.auth.authenticate(undefined).catch((error: ProblemError) => error);
    expect(missing).toMatchObject({ kind: "unauthorized", headers: { "www-authenticate": "Bearer" } });
    const refused = await fake.auth.authenticate("Bearer x").catch((error: ProblemError) => error);
    expect(refused).toMatchObject({ headers: { "www-authenticate": 'Bearer error="invalid_token"' } });
  });

  it("keeps a customer to their own rows, as the real ownership rule does", async () => {
    const fake = createFakeDataAccess();
    await expect(fake.users.get(FAKE_ADMIN.id, customer)).rejects.toMatchObject({ kind: "notFound" });
    expect((await fake.orders.list({ limit: 10, total: false }, { id: FAKE_ADMIN.id, role: "customer" })).data).toEqual(
      [],
    );
    await expect(fake.orders.updateStatus(FAKE_ORDER.id, "shipped", customer)).rejects.toMatchObject({
      kind: "forbidden",
    });
  });

  it("keeps writes, and an override replaces one method only", async () => {
    const fake = createFakeDataAccess({
      users: { list: async () => ({ data: [], page: 1, limit: 1, total: 0, pages: 0, nextCursor: null }) },
    });
    await fake.users.remove(FAKE_USER.id, admin);
    await expect(fake.users.get(FAKE_USER.id, admin)).rejects.toMatchObject({ kind: "notFound" });
    expect((await fake.users.list({ limit: 1, total: true })).total).toBe(0);
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
