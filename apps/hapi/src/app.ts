import { createServer } from "node:http";
import type { DataAccess } from "@api-ref/data-access";
import { type HttpMetrics, httpServerOptions } from "@api-ref/server";
import Hapi from "@hapi/hapi";
import hapiPino from "hapi-pino";
import type { Logger } from "pino";
import { UNREAD_PAYLOAD } from "./edges/json-body.ts";
import { problemHandler } from "./edges/problems.ts";
import { SECURITY_HEADERS, securityHeadersPlugin } from "./edges/security-headers.ts";
import { STRICT_ROUTER, strictPathsPlugin } from "./edges/strict-paths.ts";
import { RETHROW_VALIDATION } from "./edges/validate.ts";
import { authPlugin } from "./plugins/auth.ts";
import { metricsPlugin } from "./plugins/metrics.ts";
import { rateLimitPlugin } from "./plugins/rate-limit.ts";
import { requestIdPlugin } from "./plugins/request-id.ts";
import { authRoutes } from "./routes/auth.ts";
import { metaRoutes } from "./routes/meta.ts";
import { orderRoutes } from "./routes/orders.ts";
import { productRoutes } from "./routes/products.ts";
import { userRoutes } from "./routes/users.ts";

export interface ServerOptions {
  dataAccess: DataAccess;
  metrics: HttpMetrics;
  logger: Logger;
  /** Requests per client address and window on register and login (`config.authRateLimit`). */
  authRateLimit: number;
  port?: number;
  host?: string;
}

/** The request headers whose values are credentials (a bearer token, a session cookie), as pino's redact paths. */
const REDACTED_HEADERS = ["req.headers.authorization", "req.headers.cookie"];

/**
 * Builds the API on Hapi: the server, its plugins, then one plugin per resource under its prefix. Configured but not
 * started: `init()` readies it for `server.inject()`, `src/server.ts` starts it. The contract's edges (strict paths,
 * JSON bodies, problems, security headers, validation errors) are in `src/edges/`.
 */
export async function buildServer({ dataAccess, metrics, logger: parent, authRateLimit, port, host }: ServerOptions) {
  // Whatever logs a request (hapi-pino's `req` serializer logs every header), no token or cookie reaches a line;
  // hapi-pino applies its own `redact` option only to a logger it creates, so the instance it is given carries it.
  const logger = parent.child({}, { redact: { paths: REDACTED_HEADERS, censor: "[Redacted]" } });
  const server = Hapi.server({
    port,
    host,
    // The contract's limits (head size, timeouts, keep-alive; @api-ref/server's limits.ts), not Node's defaults.
    listener: createServer(httpServerOptions),
    router: STRICT_ROUTER,
    // No other framework here compresses responses by default; errors are logged by the problem handler.
    compression: false,
    debug: false,
    // With `cleanStop`, a malformed request on a connection whose request is still running can crash the process
    // (hapijs/hapi#4363); Node's `server.close()` already lets in-flight requests finish, server.ts adds the grace.
    operations: { cleanStop: false },
    routes: {
      payload: UNREAD_PAYLOAD,
      validate: RETHROW_VALIDATION,
      security: SECURITY_HEADERS,
      // No cookies in this API.
      state: { parse: false, failAction: "ignore" },
    },
  });
  // Hapi answers every client error (a head over 16 KiB, a slow head) with its own 400; without its listener
  // node:http answers as in every other Node app: 431, 408, or 400 for a request it cannot parse.
  server.listener.removeAllListeners("clientError");

  await server.register(requestIdPlugin);
  await server.register({ plugin: metricsPlugin, options: { metrics } });
  await server.register({ plugin: problemHandler, options: { logger } });
  await server.register(strictPathsPlugin);
  await server.register(securityHeadersPlugin);
  // Counts only the routes that ask for it (`plugins: { "auth-rate-limit": true }`: register and login).
  await server.register({ plugin: rateLimitPlugin, options: { limit: authRateLimit } });
  // Before the routes: `server.auth.default()` applies to the routes added after it.
  await server.register({ plugin: authPlugin, options: { dataAccess } });
  if (logger.level !== "silent") {
    // Only when logging is on, so that a benchmark with logging off pays nothing for it.
    await server.register({
      plugin: hapiPino,
      options: { instance: logger, getChildBindings: (request) => ({ reqId: request.app.requestId }) },
    });
  }

  await server.register({ plugin: metaRoutes, options: { dataAccess, metrics } });
  await server.register({ plugin: userRoutes, options: { dataAccess } }, { routes: { prefix: "/users" } });
  await server.register({ plugin: productRoutes, options: { dataAccess } }, { routes: { prefix: "/products" } });
  await server.register({ plugin: orderRoutes, options: { dataAccess } }, { routes: { prefix: "/orders" } });
  await server.register({ plugin: authRoutes, options: { dataAccess } }, { routes: { prefix: "/auth" } });
  return server;
}

/** The server initialized (caches started, plugins ready) but not listening: what tests use with `server.inject()`. */
export async function init(options: ServerOptions) {
  const server = await buildServer(options);
  await server.initialize();
  return server;
}
