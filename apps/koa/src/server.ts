// Reads the environment, builds the app and its node:http server, and serves until SIGTERM/SIGINT: then the server
// stops accepting connections, lets in-flight requests finish, closes the database pool and exits 0 (core's
// `serveUntilSignalled`).
import { createServer } from "node:http";
import {
  createDataAccess,
  createHttpMetrics,
  httpServerOptions,
  loadConfigOrExit,
  serveUntilSignalled,
} from "@api-ref/core";
import { pino } from "pino";
import { buildApp } from "./app.ts";

const config = loadConfigOrExit();
const logger = pino({ level: config.logLevel });
const dataAccess = createDataAccess(config);
const app = buildApp({ dataAccess, metrics: createHttpMetrics("koa"), logger });

// app.listen() is http.createServer(app.callback()).listen() with Node's defaults: the same plain node:http
// server here, with the contract's limits stated (head size, time for the head and for the whole request,
// keep-alive; see @api-ref/core's limits.ts).
const server = createServer(httpServerOptions, app.callback());
serveUntilSignalled(server, { name: "koa", config, dataAccess, logger });
