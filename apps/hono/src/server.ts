// The process: `@api-ref/server`'s `serveNodeApp` reads the environment and hands this file the data access, metrics
// and logger, and the configuration (the app takes its auth rate limit); the app becomes a node:http server here;
// SIGTERM/SIGINT then stop it gracefully (stop accepting, let in-flight requests finish, close the database pool, exit
// 0).
import { httpServerOptions } from "@api-ref/server";
import { serveNodeApp } from "@api-ref/server/serve";
import { getConnInfo } from "@hono/node-server/conninfo";
import { buildApp, FRAMEWORK } from "./app.ts";
import { createNodeServer } from "./edges/strict-paths.ts";

// A plain node:http server around Hono's `fetch` (`serve()`, written out: see `createNodeServer`), given the
// contract's limits (head size, time for the head and for the whole request, keep-alive; @api-ref/server's limits.ts).
// The rate limit counts per client: the socket's address, read by @hono/node-server's `getConnInfo`.
serveNodeApp(FRAMEWORK, (dependencies, config) =>
  createNodeServer(
    buildApp({ ...dependencies, authRateLimit: config.authRateLimit, getConnInfo }).fetch,
    config.host,
    httpServerOptions,
  ),
);
