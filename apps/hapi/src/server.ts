// Reads the environment, starts the server, and shuts down gracefully: on SIGTERM/SIGINT `server.stop()` stops
// accepting connections and lets in-flight requests finish (up to the grace period), then the database pool is
// closed and the process exits 0.
import { createDataAccess } from "@api-ref/data-access";
import { createHttpMetrics, loadConfigOrExit } from "@api-ref/server";
import { stopOnSignal } from "@api-ref/server/serve";
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
  authRateLimit: config.authRateLimit,
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

// Hapi's stop() cannot close the connections left at the end of the grace period here (`cleanStop` is off, see
// app.ts): `@api-ref/server`'s stopOnSignal does, as for every other server.
stopOnSignal({
  logger,
  dataAccess,
  graceMs: config.shutdownGraceMs,
  // Stops accepting, lets in-flight requests finish, closes idle keep-alive connections, runs onPreStop/onPostStop.
  stop: () => server.stop({ timeout: config.shutdownGraceMs }),
  forceClose: () => server.listener.closeAllConnections(),
});
