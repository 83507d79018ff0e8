import type { DataAccess } from "@api-ref/data-access";
import type { HttpMetrics } from "@api-ref/server";
import { Hono } from "hono";
import type { GetConnInfo } from "hono/conninfo";
import type { Logger } from "pino";
import { jsonCharset } from "./edges/json-charset.ts";
import { problemHandler } from "./edges/problems.ts";
import { securityHeaders } from "./edges/security-headers.ts";
import { notFound, pathAsSent } from "./edges/strict-paths.ts";
import type { AppEnv } from "./env.ts";
import { requestLogger } from "./middleware/logger.ts";
import { recordMetrics } from "./middleware/metrics.ts";
import { requestId } from "./middleware/request-id.ts";
import { authRoutes } from "./routes/auth.ts";
import { metaRoutes } from "./routes/meta.ts";
import { orderRoutes } from "./routes/orders.ts";
import { productRoutes } from "./routes/products.ts";
import { userRoutes } from "./routes/users.ts";

/** The framework's name, given by each server entry (Node, Bun, Deno) to the metrics' label, /health and its logs. */
export const FRAMEWORK = "hono";

export interface AppOptions {
  dataAccess: DataAccess;
  metrics: HttpMetrics;
  logger: Logger;
  /** Requests per client address and window to each of register and login (`config.authRateLimit`). */
  authRateLimit: number;
  /**
   * The runtime's `getConnInfo` (@hono/node-server/conninfo, hono/bun or hono/deno), given by each server entry:
   * the rate limit counts per client address.
   */
  getConnInfo?: GetConnInfo;
}

/**
 * Wires the API on Hono: app-wide middleware, an app per resource mounted with `app.route()`, and the handlers every
 * problem goes through. The contract's edges (strict paths, JSON bodies, problems, security headers) are in edges/.
 */
export function buildApp({ dataAccess, metrics, logger, authRateLimit, getConnInfo }: AppOptions) {
  // `strict: true` (Hono's default, stated): `/users/` is another path than `/users` (404).
  const app = new Hono<AppEnv>({ strict: true, getPath: pathAsSent });

  // Outermost first: every response gets the security headers and the request id; metrics see the final status.
  app.use(securityHeaders);
  app.use(requestId);
  app.use(recordMetrics(metrics));
  if (logger.level !== "silent") app.use(requestLogger(logger));
  app.use(jsonCharset);

  const routes = app
    .route("/", metaRoutes(dataAccess, metrics))
    .route("/users", userRoutes(dataAccess))
    .route("/products", productRoutes(dataAccess))
    .route("/orders", orderRoutes(dataAccess))
    .route("/auth", authRoutes(dataAccess, { limit: authRateLimit, getConnInfo }));

  app.notFound(notFound);
  app.onError(problemHandler(logger));
  return routes;
}

/** The app's type, routes and schemas included: what `hono/client`'s `hc<AppType>()` would be typed with. */
export type AppType = ReturnType<typeof buildApp>;
