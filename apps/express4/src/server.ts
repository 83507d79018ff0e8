// The process: `@api-ref/server`'s `serveNodeApp` reads the environment and hands this file the data access, metrics
// and logger, and the configuration (the app takes its auth rate limit); the app becomes a node:http server here;
// SIGTERM/SIGINT then stop it gracefully (stop accepting, let in-flight requests finish, close the database pool, exit
// 0).
import { createServer } from "node:http";
import { httpServerOptions } from "@api-ref/server";
import { serveNodeApp } from "@api-ref/server/serve";
import { buildApp } from "./app.ts";

// app.listen() would be http.createServer(app) with Node's defaults: the contract's limits are stated instead
// (head size, time for the head and for the whole request, keep-alive; see @api-ref/server's limits.ts).
serveNodeApp("express", (dependencies, { authRateLimit }) =>
  createServer(httpServerOptions, buildApp({ ...dependencies, authRateLimit })),
);
