// Reads the environment, builds the app and its node:http server, and serves until SIGTERM/SIGINT: then the server
// stops accepting connections, lets in-flight requests finish, closes the database pool and exits 0 (core's
// `serveUntilSignalled`).
import {
  createDataAccess,
  createHttpMetrics,
  httpServerOptions,
  loadConfigOrExit,
  serveUntilSignalled,
} from "@api-ref/core";
import { pino } from "pino";
import { buildApp } from "./app.ts";
import { createNodeServer } from "./paths.ts";
import { FRAMEWORK } from "./routes/meta.ts";

const config = loadConfigOrExit();
const logger = pino({ level: config.logLevel });
const dataAccess = createDataAccess(config);
const app = buildApp({ dataAccess, metrics: createHttpMetrics(FRAMEWORK), logger });

// A plain node:http server around Hono's `fetch` (`serve()`, written out: see `createNodeServer`), given the
// contract's limits (head size, time for the head and for the whole request, keep-alive; @api-ref/core's limits.ts).
const server = createNodeServer(app.fetch, config.host, httpServerOptions);
serveUntilSignalled(server, { name: FRAMEWORK, config, dataAccess, logger });
