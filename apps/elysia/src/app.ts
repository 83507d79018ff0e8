import type { DataAccess } from "@api-ref/data-access";
import type { HttpMetrics } from "@api-ref/server";
import { Elysia } from "elysia";
import type { Logger } from "pino";
import { jsonCharset } from "./edges/json-charset.ts";
import { problemHandler } from "./edges/problems.ts";
import { securityHeaders } from "./edges/security-headers.ts";
import { STRICT_PATHS } from "./edges/strict-paths.ts";
import { requestLogger } from "./plugins/logger.ts";
import { recordMetrics } from "./plugins/metrics.ts";
import type { RequestIP } from "./plugins/rate-limit.ts";
import { requestId } from "./plugins/request-id.ts";
import { authRoutes } from "./routes/auth.ts";
import { metaRoutes } from "./routes/meta.ts";
import { orderRoutes } from "./routes/orders.ts";
import { productRoutes } from "./routes/products.ts";
import { userRoutes } from "./routes/users.ts";

/** The framework's name, given by the server entry to the metrics' label, /health and its logs. */
export const FRAMEWORK = "elysia";

export interface AppOptions {
  dataAccess: DataAccess;
  metrics: HttpMetrics;
  logger: Logger;
  /** Requests per client address and window on register and login (`config.authRateLimit`). */
  authRateLimit: number;
  /** Bun's `server.requestIP`, given by the server entry (Elysia's own `server` is only `app.listen()`'s). */
  requestIP?: RequestIP;
}

/**
 * Wires the API on Elysia: the app-wide plugins first (the request id and the security headers, so every response has
 * them; metrics; the one error handler; the JSON charset; logging), then a plugin per resource, each with its prefix
 * (`new Elysia({ prefix: "/users" })`). The contract's edges are in `src/edges/`.
 */
export function buildApp({ dataAccess, metrics, logger, authRateLimit, requestIP }: AppOptions) {
  const app = new Elysia(STRICT_PATHS)
    .use(requestId)
    .use(securityHeaders)
    .use(recordMetrics(metrics))
    .use(problemHandler(logger))
    .use(jsonCharset);
  return (logger.level === "silent" ? app : app.use(requestLogger(logger)))
    .use(metaRoutes(dataAccess, metrics))
    .use(userRoutes(dataAccess))
    .use(productRoutes(dataAccess))
    .use(orderRoutes(dataAccess))
    .use(authRoutes(dataAccess, { limit: authRateLimit, requestIP }));
}

/** The app's type, routes and schemas included: what Eden (`treaty<App>()`) would be typed with. */
export type App = ReturnType<typeof buildApp>;
