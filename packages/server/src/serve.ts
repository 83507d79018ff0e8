// The life of a plain node:http server, the same for every app that owns one (Express, Koa, Hono), apart from how
// the app becomes a server. `serveNodeApp` starts it: the config from the environment (exit 2 with what is wrong),
// a pino logger, the data access and the metrics, which the app's own `createServer` turns into a server.
// `serveUntilSignalled` ends it: listen, exit 1 when the port cannot be had, and on SIGTERM/SIGINT stop gracefully —
// stop accepting, let in-flight requests finish (at most `SHUTDOWN_GRACE_MS`, then their connections are closed),
// close the data access, exit 0. Imported as `@api-ref/server/serve`.
import type { Server } from "node:http";
import { createDataAccess, type DataAccess } from "@api-ref/data-access";
import { type Logger, pino } from "pino";
import { type AppConfig, loadConfigOrExit } from "./config.ts";
import { createHttpMetrics, type HttpMetrics } from "./metrics.ts";

/** What an app is built from. */
export interface NodeAppDependencies {
  dataAccess: DataAccess;
  metrics: HttpMetrics;
  logger: Logger;
}

/**
 * Reads the environment, builds the app's server with `createServer` and serves it until SIGTERM/SIGINT.
 * `name` is the framework's, for the metrics' `framework` label and the "listening" line.
 */
export function serveNodeApp(
  name: string,
  createServer: (dependencies: NodeAppDependencies, config: AppConfig) => Server,
): void {
  const config = loadConfigOrExit();
  const logger = pino({ level: config.logLevel });
  const dataAccess = createDataAccess(config);
  const server = createServer({ dataAccess, metrics: createHttpMetrics(name), logger }, config);
  serveUntilSignalled(server, { name, config, dataAccess, logger });
}

/** The few pino methods used here (any pino `Logger` fits). */
export interface ServeLogger {
  info(obj: object | string, msg?: string): void;
  error(msg: string): void;
  fatal(obj: object, msg: string): void;
}

export interface ServeOptions {
  /** The framework's name, for the "listening" line. */
  name: string;
  /** Where to listen, and how long in-flight requests may take after a signal before their connections are closed. */
  config: Pick<AppConfig, "host" | "port" | "shutdownGraceMs">;
  dataAccess: { close(): Promise<void> };
  logger: ServeLogger;
}

export function serveUntilSignalled(server: Server, { name, config, dataAccess, logger }: ServeOptions) {
  const { host, port, shutdownGraceMs } = config;
  server.listen(port, host, () => {
    logger.info(`${name} listening on http://${host}:${port}`);
  });
  server.once("error", (error) => {
    logger.fatal({ err: error }, "could not listen");
    process.exit(1);
  });

  stopOnSignal({
    logger,
    dataAccess,
    graceMs: shutdownGraceMs,
    // close() stops accepting and waits for in-flight requests; idle keep-alive sockets are closed at once, and a
    // busy one as soon as its last response is sent (no keep-alive idle time, which would hold close() up for 5 s).
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.keepAliveTimeout = 1;
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
    forceClose: () => server.closeAllConnections(),
  });
}

export interface StopOnSignalOptions {
  logger: ServeLogger;
  dataAccess: { close(): Promise<void> };
  /** How long in-flight requests may take after the signal before `forceClose` runs. */
  graceMs: number;
  /** Stops accepting connections; resolves once the requests in flight have been answered. */
  stop: () => Promise<void>;
  /** Closes every connection still open (after the grace period). */
  forceClose: () => void;
}

/**
 * The graceful stop every server here shares, on the first SIGTERM or SIGINT: `stop()`; past `graceMs`, the
 * connections still open are closed (`forceClose`); then the data access is closed and the process exits, 0 or 1
 * when stopping failed. Node servers get it from `serveUntilSignalled`, Bun and Deno ones from serve-fetch.ts, and
 * an app that starts its own server (Hapi) calls it with its framework's stop.
 */
export function stopOnSignal({ logger, dataAccess, graceMs, stop, forceClose }: StopOnSignalOptions): void {
  let shuttingDown = false;
  async function shutdown(signal: NodeJS.Signals) {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, "shutting down");
    const timer = setTimeout(() => {
      logger.error("in-flight requests did not finish in time; closing them");
      forceClose();
    }, graceMs);
    let failed = false;
    try {
      await stop();
    } catch (error) {
      failed = true;
      logger.error(`stopping the server failed: ${(error as Error).message}`);
    }
    clearTimeout(timer);
    await dataAccess.close();
    logger.info("stopped");
    process.exit(failed ? 1 : 0);
  }
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}
