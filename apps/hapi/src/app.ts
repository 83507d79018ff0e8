import { createServer } from "node:http";
import { type DataAccess, type HttpMetrics, httpServerOptions } from "@api-ref/core";
import Hapi from "@hapi/hapi";
import hapiPino from "hapi-pino";
import type { Logger } from "pino";
import { authPlugin } from "./plugins/auth.ts";
import { contentSecurityPolicyPlugin } from "./plugins/content-security-policy.ts";
import { problemHandler } from "./plugins/errors.ts";
import { metricsPlugin } from "./plugins/metrics.ts";
import { rateLimitPlugin } from "./plugins/rate-limit.ts";
import { requestIdPlugin } from "./plugins/request-id.ts";
import { strictPathsPlugin } from "./plugins/strict-paths.ts";
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
 * Builds the API on Hapi: server settings, the cross-cutting plugins (request ids, metrics, problem+json errors,
 * the content-security-policy, the auth rate limit, logging, the bearer auth strategy every route defaults to), then
 * one plugin per resource. The server is
 * configured but not started: `init()` readies it for `server.inject()`, `src/server.ts` starts it.
 */
export async function buildServer({ dataAccess, metrics, logger: parent, authRateLimit, port, host }: ServerOptions) {
  // Whatever logs a request (hapi-pino's `req` serializer logs every header), no token or cookie reaches a line;
  // hapi-pino applies its own `redact` option only to a logger it creates, so the instance it is given carries it.
  const logger = parent.child({}, { redact: { paths: REDACTED_HEADERS, censor: "[Redacted]" } });
  const server = Hapi.server({
    port,
    host,
    // Hapi would create a node:http server with Node's defaults; this one states the contract's limits (head
    // size, time for the head and for the whole request, keep-alive; @api-ref/core's limits.ts).
    listener: createServer(httpServerOptions),
    // Strict paths, as the contract says: `/Users` and `/users/` are other paths (404).
    router: { isCaseSensitive: true, stripTrailingSlash: false },
    // No other framework here compresses responses by default; errors are logged by the problem handler (`plugins/errors.ts`).
    compression: false,
    debug: false,
    // With `cleanStop`, Hapi answers an HTTP parse error on a connection whose request is still running through
    // that request's lifecycle, and with any onPreResponse extension that crashes the process (an unhandled
    // assertion in Hapi, hapijs/hapi#4363; a malformed request is enough). Node's own `server.close()` already
    // lets in-flight requests finish and closes idle keep-alive connections; server.ts adds the grace timer.
    operations: { cleanStop: false },
    routes: {
      // Hapi reads and parses the body of every route that is not a GET; here only the routes that take JSON read
      // one (`jsonBody`), the others leave it unread as every other implementation does (else a large body on
      // a 405 would be a 413, and malformed JSON on a DELETE a 400).
      payload: { output: "stream", parse: false, failAction: "ignore" },
      // Rethrow what validation threw: it is already the contract's 400.
      validate: {
        failAction: (_request, _h, error) => {
          throw error;
        },
      },
      // No cookies in this API.
      state: { parse: false, failAction: "ignore" },
      // Hapi's own security headers, on every response (errors, 404s and 405s are answered through a route too):
      // `x-frame-options: DENY` and `x-content-type-options: nosniff` as the contract says, with Hapi's other defaults
      // (HSTS, `x-xss-protection: 0`, `x-download-options: noopen`). The content-security-policy, which this option
      // does not set, is the `content-security-policy` plugin's.
      security: { xframe: "deny", noSniff: true },
    },
  });

  // Hapi answers every client error (a head over 16 KiB, a slow head) with its own 400; without its listener
  // node:http answers as in every other Node app: 431, 408, or 400 for a request it cannot parse.
  server.listener.removeAllListeners("clientError");
  await server.register(requestIdPlugin);
  await server.register({ plugin: metricsPlugin, options: { metrics } });
  await server.register({ plugin: problemHandler, options: { logger } });
  await server.register(strictPathsPlugin);
  await server.register(contentSecurityPolicyPlugin);
  // Counts only the routes that ask for it (`plugins: { "auth-rate-limit": true }`: register and login).
  await server.register({ plugin: rateLimitPlugin, options: { limit: authRateLimit } });
  // Before the routes: `server.auth.default()` applies to the routes added after it.
  await server.register({ plugin: authPlugin, options: { dataAccess } });
  if (logger.level !== "silent") {
    // Mounted only when logging is on, so that a benchmark with logging off pays nothing for it.
    await server.register({
      plugin: hapiPino,
      options: { instance: logger, getChildBindings: (request) => ({ reqId: request.app.requestId }) },
    });
  }
  await server.register({ plugin: metaRoutes, options: { dataAccess, metrics } });
  await server.register({ plugin: userRoutes, options: { dataAccess } });
  await server.register({ plugin: productRoutes, options: { dataAccess } });
  await server.register({ plugin: orderRoutes, options: { dataAccess } });
  await server.register({ plugin: authRoutes, options: { dataAccess } });
  return server;
}

/** The server initialized (caches started, plugins ready) but not listening: what tests use with `server.inject()`. */
export async function init(options: ServerOptions) {
  const server = await buildServer(options);
  await server.initialize();
  return server;
}
