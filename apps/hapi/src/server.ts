// Reads the environment, starts the server, and shuts down gracefully: on SIGTERM/SIGINT `server.stop()` stops
// accepting connections and lets in-flight requests finish (up to the grace period), then the database pool is
// closed and the process exits 0.
import { createDataAccess, createHttpMetrics, loadConfigOrExit } from "@api-ref/core";
import { pino } from "pino";
import { buildServer } from "./app.ts";

const config = loadConfigOrExit();
const logger = pino({ level: config.logLevel });
const dataAccess = createDataAccess(config);
// The framework's name, for the metrics' label, /health and the "listening" line.
const metrics = createHttpMetrics("hapi");
const server = await buildServer({
  dataAccess,
  metrics,
  logger,
  port: config.port,
  host: config.host,
});

try {
  await server.start();
} catch (error) {
  logger.fatal({ err: error }, "could not start");
  process.exit(1);
}
logger.info(`${metrics.framework} listening on ${server.info.uri}`);

let shuttingDown = false;
async function shutdown(signal: NodeJS.Signals) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, "shutting down");
  const timer = setTimeout(() => {
    logger.error("in-flight requests did not finish in time; closing them");
    server.listener.closeAllConnections();
  }, config.shutdownGraceMs);
  timer.unref();
  try {
    // Stops accepting, lets in-flight requests finish, closes idle keep-alive connections, runs onPreStop/onPostStop.
    await server.stop({ timeout: config.shutdownGraceMs });
    await dataAccess.close();
    logger.info("stopped");
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, "shutdown failed");
    process.exit(1);
  }
}
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);
