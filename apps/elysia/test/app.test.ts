// The app in Elysia's own testing idiom, with Bun's test runner: `app.handle(new Request(...))` runs a request through
// the app in memory, on the fake data access from @api-ref/core/testing (no database, no server). What is checked
// is what the Elysia wiring decides — routing, the contract's schemas as Elysia's validators, the contract's body
// parser, the order of checks, problems, request ids, metrics. Raw-URL rules (`/%75sers`, dot segments) and the
// server's limits need Bun.serve and a socket: the contract suite checks them over real HTTP.
import { beforeEach, describe, expect, it, spyOn } from "bun:test";
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
import { buildApp } from "../src/app.ts";

const ID = user.id;
// Elysia finds the path after the origin by position, as a server's request URL always has one: a real host here.
const url = (path: string) => `http://localhost${path}`;

let dataAccess: DataAccess;
let app: ReturnType<typeof buildApp>;
beforeEach(() => {
  // The shared fake, with a database that cannot be reached behind /ready and spies on what the routes call.
  dataAccess = createFakeDataAccess({
    ping: async () => {
      throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    },
  });
  for (const method of ["list", "create", "remove"] as const) spyOn(dataAccess.users, method);
  app = buildApp({ dataAccess, metrics: createHttpMetrics("elysia"), logger: pino({ level: "silent" }) });
});

const request = (path: string, init?: RequestInit) => app.handle(new Request(url(path), init));

describe("routes, one plugin per resource", () => {
  it("GET /users validates the query with the contract's schema and hands the parsed values to the data access", async () => {
    const res = await request("/users?page=1&limit=5");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toMatchObject({ data: [user], page: 1, limit: 5 });
    expect(dataAccess.users.list).toHaveBeenCalledWith({ page: 1, limit: 5 });
  });

  it("POST /users answers 201 with a location, from the body as the contract's schema output it", async () => {
    const res = await request("/users", jsonInit("POST", '{"email":"New@Example.com","name":" New "}'));
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string };
    expect(res.headers.get("location")).toBe(`/users/${created.id}`);
    expect(dataAccess.users.create).toHaveBeenCalledWith({ email: "new@example.com", name: "New" });
  });

  it("DELETE /users/:id is a 204 without a body or a content type", async () => {
    const res = await request(`/users/${ID}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(res.headers.get("content-type")).toBeNull();
    expect(dataAccess.users.remove).toHaveBeenCalledWith(ID);
  });

  it("a ProblemError from the data access leaves through onError as problem+json", async () => {
    const res = await request(`/users/${MISSING_ID}`);
    expect(res.status).toBe(404);
    expectProblem(await fetchedProblem(res), "notFound");
  });

  it("an unreachable database is a 503, and the error never reaches the client", async () => {
    const res = await request("/ready");
    const problem = expectProblem(await fetchedProblem(res), "unavailable");
    expect(JSON.stringify(problem)).not.toContain("ECONNREFUSED");
  });

  it("HEAD is served by the GET route, without a body", async () => {
    const res = await request("/health", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});

describe("validation: the contract's Zod schemas as Elysia's (Standard Schema) validators", () => {
  it("an invalid path parameter is the contract's 400 on params.id, not Elysia's own 422", async () => {
    const res = await request("/users/not-a-uuid");
    expect(res.status).toBe(400);
    expectProblem(await fetchedProblem(res), "validation", ["params.id"]);
  });

  it("every field error of the body is named, unknown keys one by one", async () => {
    const res = await request("/users", jsonInit("POST", '{"email":"nope","name":"A","colour":"red"}'));
    expectProblem(await fetchedProblem(res), "validation", ["body.email", "body.colour"]);
  });

  it("an invalid Idempotency-Key on POST /orders is a 400 on headers, before the body", async () => {
    const res = await request("/orders", jsonInit("POST", "{}", { "idempotency-key": "has spaces" }));
    expectProblem(await fetchedProblem(res), "validation", ["headers.idempotency-key"]);
  });

  it("commas in a query value are the value's (include=user,product), not a list Elysia made", async () => {
    const res = await request("/orders?include=user,product");
    expect(res.status).toBe(200);
  });

  it("a repeated query parameter is a 400, not its last value", async () => {
    const res = await request("/users?limit=1&limit=2");
    expectProblem(await fetchedProblem(res), "validation", ["query.limit"]);
    expect(dataAccess.users.list).not.toHaveBeenCalled();
  });

  it("unknown query parameters are a 400 naming each", async () => {
    const res = await request("/users?page=1&colour=red");
    expectProblem(await fetchedProblem(res), "validation", ["query.colour"]);
  });
});

describe("the contract's order of checks", () => {
  it("a method the path does not serve is a 405 with the contract's allow, before the body is looked at", async () => {
    const res = await request("/users", { method: "PUT", body: "not json", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allowHeader("/users"));
  });

  for (const [what, contentType] of [
    ["a non-JSON media type", "text/plain"],
    ["a list of media types", "application/json, text/plain"],
    ["a charset other than UTF-8", "application/json; charset=latin1"],
  ]) {
    it(`${what} is a 415`, async () => {
      const res = await request("/users", jsonInit("POST", "{}", { "content-type": contentType as string }));
      expect(res.status).toBe(415);
    });
  }

  it("a declared length over 1 MiB is a 413 that closes the connection, before anything is read", async () => {
    const res = await request("/users", jsonInit("POST", "{}", { "content-length": String(1024 * 1024 + 1) }));
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expectProblem(await fetchedProblem(res), "payloadTooLarge");
  });

  it("malformed JSON beats an invalid path parameter", async () => {
    const res = await request("/users/not-a-uuid", jsonInit("PATCH", "{oops"));
    expectProblem(await fetchedProblem(res), "malformedJson");
  });

  it("prototype-poisoning keys are refused while parsing", async () => {
    const res = await request("/users", jsonInit("POST", '{"__proto__":{"x":1},"email":"a@example.com","name":"A"}'));
    expectProblem(await fetchedProblem(res), "validation", ["body"]);
    expect(dataAccess.users.create).not.toHaveBeenCalled();
  });

  it("no body at all is one error on `body`, not one per missing field", async () => {
    const res = await request("/users", { method: "POST" });
    expectProblem(await fetchedProblem(res), "validation", ["body"]);
  });
});

describe("paths, request ids and metrics", () => {
  for (const path of ["/users/", "/Users", "/nowhere"]) {
    it(`${path} is the contract's 404, with a body`, async () => {
      const res = await request(path);
      expect(res.status).toBe(404);
      expectProblem(await fetchedProblem(res), "notFound");
    });
  }

  it("a valid client x-request-id is echoed; an invalid one is replaced by a UUID; a 404 carries one too", async () => {
    expect((await request("/health", { headers: { "x-request-id": "trace.42" } })).headers.get("x-request-id")).toBe(
      "trace.42",
    );
    const replaced = (await request("/health", { headers: { "x-request-id": "a=b" } })).headers.get("x-request-id");
    expect(replaced).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await request("/nowhere", { headers: { "x-request-id": "lost.1" } })).headers.get("x-request-id")).toBe(
      "lost.1",
    );
  });

  it("metrics are labelled with the route template, 405s with their path's, unknown paths as unmatched", async () => {
    await request(`/users/${ID}`);
    await request("/users", { method: "DELETE" });
    await request("/nowhere");
    // onAfterResponse runs once the response is handed over (on the next turn of the event loop).
    await new Promise((resolve) => setImmediate(resolve));
    const text = await (await request("/metrics")).text();
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/users\/:id",status="200"[^}]*\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="DELETE",route="\/users",status="405"[^}]*\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="unmatched",status="404"[^}]*\} 1$/m);
  });
});
