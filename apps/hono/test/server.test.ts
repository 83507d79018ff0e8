// What only a real Node server shows: routing on Node's own `req.url` (the `getPath` option; `*` included), and a
// 413 that leaves a keep-alive client's connection usable. `app.request()` cannot show either: `new Request()` normalises
// the URL before the app sees it, and there is no connection. Still no database: a fake data access.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHttpMetrics } from "@api-ref/core";
import { createFakeDataAccess } from "@api-ref/core/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { createNodeServer } from "../src/paths.ts";

const dataAccess = createFakeDataAccess();

let server: http.Server;
let port: number;
beforeAll(async () => {
  const app = buildApp({ dataAccess, metrics: createHttpMetrics("hono"), logger: pino({ level: "silent" }) });
  server = createNodeServer(app.fetch, "127.0.0.1");
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** One request with node:http (no URL normalisation on the client side either). */
function request(method: string, path: string, body?: string, agent?: http.Agent) {
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const headers =
      body === undefined ? {} : { "content-type": "application/json", "content-length": String(body.length) };
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent: agent ?? false }, (res) => {
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
