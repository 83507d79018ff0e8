// Reads the environment, listens, and shuts down gracefully: on SIGTERM/SIGINT the server stops accepting
// connections, lets in-flight requests finish, then closes the database pool and exits 0.
import type { Server } from "node:http";
import { createHttpMetrics, createServices, httpServerOptions, loadConfig } from "@api-ref/core";
import { serve } from "@hono/node-server";
import { pino } from "pino";
import { buildApp } from "./app.ts";
import { FRAMEWORK } from "./routes/meta.ts";

const config = loadConfig();
const logger = pino({ level: config.logLevel });
const services = createServices(config);
const app = buildApp({ services, metrics: createHttpMetrics(FRAMEWORK), logger });

// serve() is http.createServer() around Hono's `fetch`, listening: a plain node:http server, given the contract's
// limits (head size, time for the head and for the whole request, keep-alive; @api-ref/core's limits.ts) as its
// `serverOptions`. `hostname` is also the host of the URL built for an HTTP/1.0 request without a Host header.
const server = serve(
  { fetch: app.fetch, port: config.port, hostname: config.host, serverOptions: httpServerOptions },
  () => {
    logger.info(`hono listening on http://${config.host}:${config.port}`);
  },
) as Server;
server.once("error", (error) => {
  logger.fatal({ err: error }, "could not listen");
  process.exit(1);
});

let shuttingDown = false;
function shutdown(signal: NodeJS.Signals) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, "shutting down");
  const timer = setTimeout(() => {
    logger.error("in-flight requests did not finish in time; closing them");
    server.closeAllConnections();
  }, config.shutdownGraceMs);
  timer.unref();
  // close() stops accepting and waits for in-flight requests; idle keep-alive sockets are closed at once, and a
  // busy one as soon as its last response is sent (no keep-alive idle time, which would hold close() up for 5 s).
  server.keepAliveTimeout = 1;
  server.close(async (error) => {
    await services.close();
    logger.info("stopped");
    process.exit(error ? 1 : 0);
  });
  server.closeIdleConnections();
}
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);
