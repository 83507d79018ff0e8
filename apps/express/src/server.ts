// Reads the environment, listens, and shuts down gracefully: on SIGTERM/SIGINT the server stops accepting
// connections, lets in-flight requests finish, then closes the database pool and exits 0.
import { createServer } from "node:http";
import { createDataAccess, createHttpMetrics, httpServerOptions, loadConfigOrExit } from "@api-ref/core";
import { pino } from "pino";
import { buildApp } from "./app.ts";

const config = loadConfigOrExit();
const logger = pino({ level: config.logLevel });
const dataAccess = createDataAccess(config);
const app = buildApp({ dataAccess, metrics: createHttpMetrics("express"), logger });

// app.listen() would be http.createServer(app) with Node's defaults: the contract's limits are stated instead
// (head size, time for the head and for the whole request, keep-alive; see @api-ref/core's limits.ts).
const server = createServer(httpServerOptions, app);
server.listen(config.port, config.host, () => {
  logger.info(`express listening on http://${config.host}:${config.port}`);
});
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
    await dataAccess.close();
    logger.info("stopped");
    process.exit(error ? 1 : 0);
  });
  server.closeIdleConnections();
}
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);
