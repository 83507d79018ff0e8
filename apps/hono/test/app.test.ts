// The app in Hono's own testing idiom: `app.request()` runs a Request through `app.fetch` in memory, on a fake
// data access (no database, no server). What is checked is what Hono's wiring decides — routing, validation with
// the contract's schemas, the order of checks, problems, request ids, metrics — not the data access, which the
// contract suite covers over real HTTP. Raw-URL rules (`/%75sers`, dot segments) need Node's own `req.url` and
// are checked by the contract suite, since `new Request()` normalises the URL before the app sees it.
import { allowHeader } from "@api-ref/contract";
import { createHttpMetrics, type DataAccess } from "@api-ref/core";
import {
  createFakeDataAccess,
  expectProblem,
  fetchedProblem,
  jsonInit,
  MISSING_ID,
  FAKE_USER as user,
} from "@api-ref/core/testing";
import { pino } from "pino";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { buildApp } from "../src/app.ts";

const ID = user.id;

let dataAccess: DataAccess;
let app: ReturnType<typeof buildApp>;
beforeEach(() => {
  // The shared fake, with a database that cannot be reached behind /ready and spies on what the routes call.
  dataAccess = createFakeDataAccess({
    ping: async () => {
      throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    },
  });
  for (const method of ["list", "create", "remove"] as const) vi.spyOn(dataAccess.users, method);
  app = buildApp({ dataAccess, metrics: createHttpMetrics("hono"), logger: pino({ level: "silent" }) });
});

describe("routes mounted with app.route()", () => {
  it("GET /users validates the query with the contract's schema and hands the parsed values to the service", async () => {
    const res = await app.request("/users?page=1&limit=5");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toMatchObject({ data: [user], page: 1, limit: 5 });
    expect(dataAccess.users.list).toHaveBeenCalledWith({ page: 1, limit: 5 });
  });

  it("POST /users answers 201 with a location, from the validated body", async () => {
    const res = await app.request("/users", jsonInit("POST", '{"email":"New@Example.com","name":" New "}'));
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string };
    expect(res.headers.get("location")).toBe(`/users/${created.id}`);
    expect(dataAccess.users.create).toHaveBeenCalledWith({ email: "new@example.com", name: "New" });
  });

  it("DELETE /users/:id is a 204 without a body", async () => {
    const res = await app.request(`/users/${ID}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(dataAccess.users.remove).toHaveBeenCalledWith(ID);
  });

  it("a ProblemError from the data access leaves through app.onError as problem+json", async () => {
    const res = await app.request(`/users/${MISSING_ID}`);
    expect(res.status).toBe(404);
    expectProblem(await fetchedProblem(res), "notFound");
  });

  it("an unreachable database is a 503, and the error never reaches the client", async () => {
    const res = await app.request("/ready");
    const problem = expectProblem(await fetchedProblem(res), "unavailable");
    expect(JSON.stringify(problem)).not.toContain("ECONNREFUSED");
  });
});

describe("the contract's order of checks", () => {
  it("a method the path does not serve is a 405 with the contract's allow, before the body is looked at", async () => {
    const res = await app.request("/users", {
      method: "PUT",
      body: "not json",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allowHeader("/users"));
  });

  it.each([
    ["a non-JSON media type", "text/plain"],
    ["a list of media types", "application/json, text/plain"],
    ["a charset other than UTF-8", "application/json; charset=latin1"],
  ])("%s is a 415", async (_, contentType) => {
    const res = await app.request("/users", jsonInit("POST", "{}", { "content-type": contentType }));
    expect(res.status).toBe(415);
  });

  it("a declared length over 1 MiB is a 413 that closes the connection, before anything is read", async () => {
    const res = await app.request("/users", jsonInit("POST", "{}", { "content-length": String(1024 * 1024 + 1) }));
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expectProblem(await fetchedProblem(res), "payloadTooLarge");
  });

  it("malformed JSON beats an invalid path parameter", async () => {
    const res = await app.request("/users/not-a-uuid", jsonInit("PATCH", "{oops"));
    expectProblem(await fetchedProblem(res), "malformedJson");
  });

  it("prototype-poisoning keys are refused while parsing", async () => {
    const res = await app.request(
      "/users",
      jsonInit("POST", '{"__proto__":{"x":1},"email":"a@example.com","name":"A"}'),
    );
    expect(res.status).toBe(400);
    expectProblem(await fetchedProblem(res), "validation", ["body"]);
    expect(dataAccess.users.create).not.toHaveBeenCalled();
  });

  it("a JSON body with a byte-order mark is read as without it", async () => {
    const res = await app.request("/users", jsonInit("POST", '\uFEFF{"email":"bom@example.com","name":"B"}'));
    expect(res.status).toBe(201);
  });

  it("no body at all is one error on `body`, not one per missing field", async () => {
    const res = await app.request("/users", { method: "POST" });
    expectProblem(await fetchedProblem(res), "validation", ["body"]);
  });

  it("unknown query parameters are a 400 naming each", async () => {
    const res = await app.request("/users?page=1&colour=red");
    expectProblem(await fetchedProblem(res), "validation", ["query.colour"]);
  });
});

describe("paths, request ids and metrics", () => {
  it.each(["/users/", "/Users", "/nowhere"])("%s is the contract's 404", async (path) => {
    const res = await app.request(path);
    expect(res.status).toBe(404);
    expectProblem(await fetchedProblem(res), "notFound");
  });

  it("a valid client x-request-id is echoed; an invalid one is replaced by a UUID", async () => {
    expect(
      (await app.request("/health", { headers: { "x-request-id": "trace.42" } })).headers.get("x-request-id"),
    ).toBe("trace.42");
    const replaced = (await app.request("/health", { headers: { "x-request-id": "a=b" } })).headers.get("x-request-id");
    expect(replaced).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("metrics are labelled with the route template, 405s with their path's, unknown paths as unmatched", async () => {
    await app.request(`/users/${ID}`);
    await app.request("/users", { method: "DELETE" });
    await app.request("/nowhere");
    const text = await (await app.request("/metrics")).text();
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/users\/:id",status="200"[^}]*\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="DELETE",route="\/users",status="405"[^}]*\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="unmatched",status="404"[^}]*\} 1$/m);
  });

  it("HEAD is served by the GET route, without a body", async () => {
    const res = await app.request("/health", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});
