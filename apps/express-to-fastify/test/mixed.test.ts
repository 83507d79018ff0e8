// The seams of the mixed state, over real HTTP and without a database (every request here is answered before the
// data access is reached). The contract suite is the safety net for behaviour; these tests pin down what only a
// half-migrated app can get wrong: a path served by both worlds or by neither, two error formats, two request ids,
// metrics that lose the route of one world, a body stream read by the wrong layer, a URL decoded twice.
import type { AddressInfo } from "node:net";
import { allowHeader, methodsByPath } from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import type { IRouter } from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../src/app.ts";
import { expressRouters } from "../src/legacy/express.ts";

const config = {
  // Nothing listens there: a request that reached the data access would be a 503, and none here does.
  databaseUrl: "postgres://nobody:nothing@127.0.0.1:9/none",
  jwtSecret: "a-secret-of-at-least-16-characters",
  poolSize: 1,
  logLevel: "silent",
};

let app: Awaited<ReturnType<typeof buildApp>>;
let base: string;
beforeAll(async () => {
  app = await buildApp({ config });
  await app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
});

const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body,
  });
const problemOf = async (res: Response) => {
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  return (await res.json()) as { type: string; status: number; errors?: { path: string }[] };
};

/** The route templates an Express sub-app serves (each mounted router's `router.route(path)`s). */
function expressPaths(sub: { router: IRouter }) {
  type Layer = { route?: { path: string }; handle: { stack?: Layer[] } };
  const layers = (sub.router as unknown as { stack: Layer[] }).stack;
  return layers
    .flatMap((layer) => layer.handle.stack ?? [])
    .flatMap((layer) => (layer.route ? [layer.route.path] : []));
}

describe("where each path lives", () => {
  it("every path of the contract is served by exactly one world", () => {
    // Express runs first (in onRequest): a path left in an Express router shadows its new Fastify route, and a
    // path in neither is a 404. Run this after each moved resource.
    const express = new Set(expressPaths(expressRouters({} as DataAccess, pino({ level: "silent" }))));
    for (const [path, methods] of methodsByPath) {
      const native = methods.some((method) => app.hasRoute({ method, url: path }));
      expect({ path, native, express: express.has(path) }).toEqual({
        path,
        native: !express.has(path),
        express: !native,
      });
    }
    expect([...express].every((path) => methodsByPath.has(path))).toBe(true);
  });
});

describe("one error format for both worlds", () => {
  it.each([
    ["Express", "/users", ["body.email", "body.name"]],
    ["Fastify", "/products", ["body.name", "body.priceCents", "body.stock"]],
  ])("a body that fails validation on a route %s serves is the contract's 400", async (_, path, paths) => {
    const res = await send("POST", path, "{}");
    expect(res.status).toBe(400);
    const body = await problemOf(res);
    expect(body.type).toBe("/problems/validation-error");
    expect(body.errors?.map((e) => e.path).sort()).toEqual([...paths].sort());
  });

  it.each([
    ["Express", "/users/00000000-0000-4000-8000-000000000001", "/users/:id"],
    ["Fastify", "/products/00000000-0000-4000-8000-000000000001", "/products/:id"],
  ])("a method a path served by %s does not serve is a 405 with the contract's allow", async (_, path, template) => {
    const res = await send("PUT", path);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allowHeader(template));
    expect((await problemOf(res)).type).toBe("/problems/method-not-allowed");
  });

  it("a path neither world serves is Fastify's 404", async () => {
    const res = await send("POST", "/users/", "{}");
    expect(res.status).toBe(404);
    expect((await problemOf(res)).type).toBe("/problems/not-found");
  });
});

describe("bodies", () => {
  const tooLarge = `{"filler":"${"x".repeat(1024 * 1024)}"}`;
  it.each([
    ["Express (express.text on the raw stream)", "/users"],
    ["Fastify (bodyLimit)", "/products"],
  ])("%s answers a body over 1 MiB with a 413", async (_, path) => {
    const res = await send("POST", path, tooLarge);
    expect(res.status).toBe(413);
    expect((await problemOf(res)).type).toBe("/problems/payload-too-large");
  });

  it.each(["/users", "/products"])("POST %s with a text/plain body is a 415", async (path) => {
    const res = await send("POST", path, "{}", { "content-type": "text/plain" });
    expect(res.status).toBe(415);
  });
});

describe("request ids, URLs and metrics across both worlds", () => {
  it.each(["/users/not-a-uuid", "/products/not-a-uuid", "/nowhere"])(
    "%s echoes the client's x-request-id",
    async (path) => {
      const res = await send("GET", path, undefined, { "x-request-id": "trace-42" });
      expect(res.headers.get("x-request-id")).toBe("trace-42");
    },
  );

  it("Express gets the URL as sent: a malformed escape in the query is Express's to judge, not a 500 or a 405", async () => {
    const res = await send("GET", "/users?page=0&q=%zz");
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors?.map((e) => e.path)).toEqual(["query.page"]);
  });

  it("labels requests of both worlds with their route template", async () => {
    await send("GET", "/users/not-a-uuid");
    await send("GET", "/products/not-a-uuid");
    await send("GET", "/nowhere-to-be-found");
    const text = await (await send("GET", "/metrics")).text();
    expect(text).toMatch(/^http_requests_total\{[^}]*route="\/users\/:id"[^}]*status="400"/m);
    expect(text).toMatch(/^http_requests_total\{[^}]*route="\/products\/:id"[^}]*status="400"/m);
    expect(text).toMatch(/^http_requests_total\{[^}]*route="unmatched"/m);
    expect(text).not.toContain("not-a-uuid");
  });
});

describe("shutdown", () => {
  it("one close: Fastify's, which closes the shared dataAccess once", async () => {
    const other = await buildApp({ config });
    const close = vi.spyOn(other.dataAccess, "close");
    await other.close();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
