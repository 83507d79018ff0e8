// The seams of the mixed state, over real HTTP and without a database (every request here is answered before the
// data access is reached). The app is built and started exactly as the contract suite starts it (its registry
// entry): Nest needs compiled decorators, so it is tested as a process, not imported. The contract suite is the
// safety net for behaviour; these tests pin down what only a half-migrated app can get wrong: a path served by
// both worlds or by neither, two error formats, two request ids, metrics that lose one world's routes, a body
// stream read by the wrong layer, one shutdown for both.
import { methodsByPath } from "@api-ref/contract";
import { describeMixedSeams, expressPaths, problemOf, sendTo } from "@api-ref/contract/mixed-state";
import type { DataAccess } from "@api-ref/data-access";
import { build, implementations, launch, type RunningImplementation } from "@api-ref/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FRAMEWORK } from "../src/app.module.ts";
import { expressMounts } from "../src/legacy/express.ts";

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

const send = sendTo(() => app.url);

describe("where each path lives", () => {
  it("the Express routers serve exactly the paths not moved yet (update this list with each moved resource)", () => {
    // They run first (a Nest middleware): a path left in them shadows its new Nest route.
    // Each router's paths are relative to the prefix it is mounted at (`/` is the prefix itself).
    const express = expressMounts({} as DataAccess, { authRateLimit: 1 }).flatMap(([prefix, router]) =>
      expressPaths({ stack: [{ handle: router }] }).map((path) => (path === "/" ? prefix : `${prefix}${path}`)),
    );
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

describeMixedSeams({ url: () => app.url, worlds: { users: "Nest", products: "Express" }, framework: FRAMEWORK });

describe("this bridge's own seams", () => {
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

  // Nest's body parser is off: were it on, it would read the stream first and the Express route would see none.
  // Public routes, so that no token (and no database, which checks it) is needed to reach the body.
  it("POST /echo, on Nest, reads a valid JSON body", async () => {
    const res = await send("POST", "/echo", '{"unknown":1}');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ unknown: 1 });
  });

  it("POST /auth/login, on Express, reads a valid JSON body (the stream is not consumed twice)", async () => {
    const res = await send("POST", "/auth/login", '{"unknown":1}');
    expect((await problemOf(res)).errors?.map((e) => e.path)).toContain("body.unknown");
  });

  it.each([
    ["/users", "Nest's global guard"],
    ["/products", "Express's authenticate middleware"],
  ])("POST %s without a token is %s's 401, before its body is read", async (path) => {
    const res = await send("POST", path, '{"name":');
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect((await problemOf(res)).type).toBe("/problems/unauthorized");
  });
});

describe("one shutdown", () => {
  it("SIGTERM closes the one server and the one pool, and the process exits 0", async () => {
    expect(await app.stop()).toBe(0);
  });
});
