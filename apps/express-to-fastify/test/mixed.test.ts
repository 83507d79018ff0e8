// The seams of the mixed state, over real HTTP and without a database (every request here is answered before the data
// access is reached, but for the token: the fake data access of @api-ref/data-access/testing knows FAKE_AUTH's). The
// contract suite is the safety net for behaviour; these tests pin down what only a half-migrated app can get wrong: the
// seams every mixed state has (`describeMixedSeams`, shared with express-to-nestjs), then this bridge's own: a path
// served by both worlds or by neither, a URL decoded twice, the 404, one close.
import type { AddressInfo } from "node:net";
import { methodsByPath } from "@api-ref/contract";
import { describeMixedSeams, problemOf, sendTo } from "@api-ref/contract/mixed-state";
import type { DataAccess } from "@api-ref/data-access";
import { createFakeDataAccess, FAKE_AUTH } from "@api-ref/data-access/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, FRAMEWORK } from "../src/app.ts";
import { expressRouters } from "../src/legacy/express.ts";

const config = {
  // Nothing listens there: the one app built on it (shutdown, below) is closed without a request.
  databaseUrl: "postgres://nobody:nothing@127.0.0.1:9/none",
  jwtSecret: "a-secret-of-at-least-16-characters",
  poolSize: 1,
  logLevel: "silent",
  authRateLimit: 1_000_000,
};

let app: Awaited<ReturnType<typeof buildApp>>;
let base: string;
beforeAll(async () => {
  app = await buildApp({ config, dataAccess: createFakeDataAccess() });
  await app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
});

const send = sendTo(() => base);

type Layer = { match(path: string): false | { path: string }; route?: unknown; handle: { stack?: Layer[] } };

/**
 * The contract paths the Express sub-app's routers serve, and whether each route of theirs is one. The routers are
 * mounted at a prefix (`app.use("/users", …)`) and their routes are relative, so each path is matched through them.
 */
function expressPaths(app: { router: { stack: Layer[] } }) {
  const routes = app.router.stack.flatMap((mount) => (mount.handle.stack ?? []).filter((layer) => layer.route));
  const matched = new Set<Layer>();
  const paths = [...methodsByPath.keys()].filter((template) => {
    const path = template.replace(/:\w+/g, "x");
    return app.router.stack.some((mount) => {
      const mounted = mount.handle.stack && mount.match(path);
      if (!mounted) return false;
      const rest = path.slice(mounted.path.length) || "/";
      const route = mount.handle.stack?.find((layer) => layer.route && layer.match(rest));
      if (route) matched.add(route);
      return route !== undefined;
    });
  });
  return { paths, everyRouteIsTheContracts: routes.every((route) => matched.has(route)) };
}

describe("where each path lives", () => {
  it("every path of the contract is served by exactly one world", () => {
    // Express runs first (in onRequest): a path left in an Express router shadows its new Fastify route, and a
    // path in neither is a 404. Run this after each moved resource.
    const { paths, everyRouteIsTheContracts } = expressPaths(
      expressRouters({} as DataAccess, pino({ level: "silent" }), { authRateLimit: 1 }) as never,
    );
    const express = new Set(paths);
    for (const [path, methods] of methodsByPath) {
      const native = methods.some((method) => app.hasRoute({ method, url: path }));
      expect({ path, native, express: express.has(path) }).toEqual({
        path,
        native: !express.has(path),
        express: !native,
      });
    }
    expect(everyRouteIsTheContracts).toBe(true);
  });
});

// An admin's token on every request of the seams (the fake data access knows it): authentication comes before
// everything they check.
describeMixedSeams({
  url: () => base,
  worlds: { users: "Express", products: "Fastify" },
  framework: FRAMEWORK,
  authorization: FAKE_AUTH.admin,
});

describe("the URL Express sees", () => {
  it("is the URL as sent: a malformed escape in the query is Express's to judge, not a 500 or a 405", async () => {
    const res = await send("GET", "/users?page=0&q=%zz", undefined, { authorization: FAKE_AUTH.admin });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors?.map((e) => e.path)).toEqual(["query.page"]);
  });
});

describe("the one 404", () => {
  it("a path neither world serves is Fastify's 404", async () => {
    const res = await send("POST", "/users/", "{}");
    expect(res.status).toBe(404);
    expect((await problemOf(res)).type).toBe("/problems/not-found");
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
