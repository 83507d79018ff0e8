// The seams of the mixed state, over real HTTP and without a database (every request here is answered before the
// data access is reached). The app is built and started exactly as the contract suite starts it (its registry
// entry): Nest needs compiled decorators, so it is tested as a process, not imported. The contract suite is the
// safety net for behaviour; these tests pin down what only a half-migrated app can get wrong: a path served by
// both worlds or by neither, two error formats, two request ids, metrics that lose one world's routes, a body
// stream read by the wrong layer, one shutdown for both.
import { allowHeader, methodsByPath } from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { build, implementations, launch, type RunningImplementation } from "@api-ref/harness";
import type { IRouter } from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expressRouters } from "../src/legacy/express.ts";

const impl = implementations.find((i) => i.name === "express-to-nestjs");
if (!impl) throw new Error("express-to-nestjs is not registered");

let app: RunningImplementation;
beforeAll(async () => {
  await build(impl);
  // Nothing listens there: a request that reached the data access would be a 503, and none here does.
  app = await launch(impl, {
    databaseUrl: "postgres://nobody:nothing@127.0.0.1:9/none",
    jwtSecret: "a-secret-of-at-least-16-characters",
  });
});
afterAll(async () => {
  await app?.stop();
});

const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body,
  });
const problemOf = async (res: Response) => {
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  return (await res.json()) as { type: string; status: number; errors?: { path: string }[] };
};

/** The route templates of the Express routers still mounted (each router's `router.route(path)`s). */
function expressPaths(router: IRouter) {
  type Layer = { route?: { path: string }; handle: { stack?: Layer[] } };
  return (router as unknown as { stack: Layer[] }).stack
    .flatMap((layer) => layer.handle.stack ?? [])
    .flatMap((layer) => (layer.route ? [layer.route.path] : []));
}

describe("where each path lives", () => {
  it("the Express routers serve exactly the paths not moved yet (update this list with each moved resource)", () => {
    // They run first (a Nest middleware): a path left in them shadows its new Nest route.
    const express = expressPaths(expressRouters({} as DataAccess, pino({ level: "silent" })));
    expect(express.sort()).toEqual(
      ["/auth/login", "/auth/me", "/auth/register", "/orders", "/orders/:id", "/products", "/products/:id"].sort(),
    );
  });

  it("every route of the contract is served by one world or the other", async () => {
    // A route in neither world reaches Nest's not-found, which the filter answers as the path's 405 (or a 404).
    // Invalid input everywhere, so that no request needs the database.
    for (const [path, methods] of methodsByPath) {
      for (const method of methods.filter((m) => m !== "HEAD")) {
        const body = method === "POST" || method === "PATCH" ? "{}" : undefined;
        const res = await send(method, path.replace(":id", "x"), body);
        expect([404, 405], `${method} ${path} → ${res.status}`).not.toContain(res.status);
      }
    }
  });
});

describe("one error format for both worlds", () => {
  it.each([
    ["Nest", "/users", ["body.email", "body.name"]],
    ["Express", "/products", ["body.name", "body.priceCents", "body.stock"]],
  ])("a body that fails validation on a route %s serves is the contract's 400", async (_, path, paths) => {
    const res = await send("POST", path, "{}");
    expect(res.status).toBe(400);
    const body = await problemOf(res);
    expect(body.type).toBe("/problems/validation-error");
    expect(body.errors?.map((e) => e.path).sort()).toEqual([...paths].sort());
  });

  it.each([
    ["Nest", "/users/00000000-0000-4000-8000-000000000001", "/users/:id"],
    ["Express", "/products/00000000-0000-4000-8000-000000000001", "/products/:id"],
  ])("a method a path served by %s does not serve is a 405 with the contract's allow", async (_, path, template) => {
    const res = await send("PUT", path);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allowHeader(template));
    expect((await problemOf(res)).type).toBe("/problems/method-not-allowed");
  });

  it.each(["/users/%zz", "/products/%zz"])("%s (undecodable) is the contract's 400 on params.id", async (path) => {
    const res = await send("GET", path);
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors?.map((e) => e.path)).toEqual(["params.id"]);
  });

  it("a path neither world serves is the 404 of Nest's exception filter", async () => {
    const res = await send("POST", "/users/", "{}");
    expect(res.status).toBe(404);
    expect((await problemOf(res)).type).toBe("/problems/not-found");
  });
});

describe("bodies: each world reads its own, once", () => {
  const tooLarge = `{"filler":"${"x".repeat(1024 * 1024)}"}`;
  it.each([
    ["Nest (@JsonBody, raw-body)", "/users"],
    ["Express (express.text on the raw stream)", "/products"],
  ])("%s answers a body over 1 MiB with a 413", async (_, path) => {
    const res = await send("POST", path, tooLarge);
    expect(res.status).toBe(413);
    expect((await problemOf(res)).type).toBe("/problems/payload-too-large");
  });

  it.each(["/users", "/products"])("POST %s with a text/plain body is a 415", async (path) => {
    const res = await send("POST", path, "{}", { "content-type": "text/plain" });
    expect(res.status).toBe(415);
  });

  it.each(["/users", "/products"])(
    "POST %s reads a valid JSON body (the stream is not consumed twice)",
    async (path) => {
      // Nest's body parser is off: were it on, it would read the stream first and the Express route would see none.
      const res = await send("POST", path, '{"unknown":1}');
      expect((await problemOf(res)).errors?.map((e) => e.path)).toContain("body.unknown");
    },
  );
});

describe("request ids and metrics across both worlds", () => {
  it.each(["/users/not-a-uuid", "/products/not-a-uuid", "/nowhere"])(
    "%s echoes the client's x-request-id, once",
    async (path) => {
      const res = await send("GET", path, undefined, { "x-request-id": "trace-42" });
      expect(res.headers.get("x-request-id")).toBe("trace-42");
    },
  );

  it("one registry labels both worlds' requests with their route templates", async () => {
    await send("GET", "/users/not-a-uuid");
    await send("GET", "/products/not-a-uuid");
    const text = await (await send("GET", "/metrics")).text();
    expect(text).toMatch(
      /^http_requests_total\{method="GET",route="\/users\/:id",status="400"[^}]*framework="express-to-nestjs"/m,
    );
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/products\/:id",status="400"/m);
  });
});

describe("one shutdown", () => {
  it("SIGTERM closes the one server and the one pool, and the process exits 0", async () => {
    expect(await app.stop()).toBe(0);
  });
});
