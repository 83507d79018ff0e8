// What only a real Node server shows: routing on Node's own `req.url` (the `getPath` option; `*` included), a
// 413 that leaves a keep-alive client's connection usable, and the rate limit counting per socket address. `app.request()` cannot show either: `new Request()` normalises
// the URL before the app sees it, and there is no connection. Still no database: a fake data access.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createFakeDataAccess, FAKE_AUTH } from "@api-ref/data-access/testing";
import { createHttpMetrics } from "@api-ref/server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { createNodeServer } from "../src/edges/strict-paths.ts";

const dataAccess = createFakeDataAccess();
/** The rate limit of register and login: small, reached only by the tests about it. */
const AUTH_RATE_LIMIT = 2;

let server: http.Server;
let port: number;
beforeAll(async () => {
  const app = buildApp({
    dataAccess,
    metrics: createHttpMetrics("hono"),
    logger: pino({ level: "silent" }),
    authRateLimit: AUTH_RATE_LIMIT,
    // As src/server.ts wires it: the socket's address, from @hono/node-server's bindings.
    getConnInfo,
  });
  server = createNodeServer(app.fetch, "127.0.0.1");
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * One request with node:http (no URL normalisation on the client side either), as the admin; `from` is the local
 * address to send it from (another address of the loopback network is another client).
 */
function request(
  method: string,
  path: string,
  body?: string,
  agent?: http.Agent,
  { from, headers: extra = {} }: { from?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const json =
      body === undefined ? {} : { "content-type": "application/json", "content-length": String(body.length) };
    const headers = { ...json, authorization: FAKE_AUTH.admin, ...extra };
    const options = { host: "127.0.0.1", port, method, path, headers, agent: agent ?? false, localAddress: from };
    const req = http.request(options, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("routing on the path as sent", () => {
  it("GET /users is served (the control)", async () => {
    expect((await request("GET", "/users")).status).toBe(200);
  });

  it.each(["*", "/%75sers", "/users/%2e%2e/users", "/users/../users", "/users/./"])(
    "GET %s is a 404: no percent-decoding, no dot segments, `*` is no path",
    async (path) => {
      expect((await request("GET", path)).status).toBe(404);
    },
  );
});

describe("a 413 on a keep-alive connection", () => {
  it("closes that connection, and the client's next request is answered on a new one", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const tooLarge = await request("POST", "/users", `{"filler":"${"x".repeat(1024 * 1024)}"}`, agent);
      expect(tooLarge).toEqual({ status: 413, connection: "close" });
      expect((await request("GET", "/users", undefined, agent)).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe("the rate limit counts per socket address", () => {
  it("trusts no x-forwarded-for, and another address has a count of its own", async () => {
    const login = JSON.stringify({ email: "nobody@example.com", password: "wrong-password" });
    for (let i = 0; i < AUTH_RATE_LIMIT; i++) expect((await request("POST", "/auth/login", login)).status).toBe(401);
    const forwarded = { headers: { "x-forwarded-for": "203.0.113.7" } };
    expect((await request("POST", "/auth/login", login, undefined, forwarded)).status).toBe(429);
    expect((await request("POST", "/auth/login", login, undefined, { from: "127.0.0.2" })).status).toBe(401);
  });
});
