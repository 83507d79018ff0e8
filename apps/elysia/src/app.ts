import type { DataAccess, HttpMetrics } from "@api-ref/core";
import { Elysia } from "elysia";
import type { Logger } from "pino";
import { problemHandler } from "./plugins/errors.ts";
import { jsonCharset } from "./plugins/json-charset.ts";
import { requestLogger } from "./plugins/logger.ts";
import { recordMetrics } from "./plugins/metrics.ts";
import { requestId } from "./plugins/request-id.ts";
import { authRoutes } from "./routes/auth.ts";
import { metaRoutes } from "./routes/meta.ts";
import { orderRoutes } from "./routes/orders.ts";
import { productRoutes } from "./routes/products.ts";
import { userRoutes } from "./routes/users.ts";

export interface AppOptions {
  dataAccess: DataAccess;
  metrics: HttpMetrics;
  logger: Logger;
}

/**
 * Wires the API on Elysia: the app-wide plugins first (the request id, so every response has one; metrics; logging;
 * the JSON charset; the one error handler), then a plugin per resource. `strictPath`: `/users/` is another path
 * than `/users` (404), as the contract says.
 */
export function buildApp({ dataAccess, metrics, logger }: AppOptions) {
  const app = new Elysia({ strictPath: true })
    .use(requestId)
    .use(recordMetrics(metrics))
    .use(problemHandler(logger))
    .use(jsonCharset);
  return (logger.level === "silent" ? app : app.use(requestLogger(logger)))
    .use(metaRoutes(dataAccess, metrics))
    .use(userRoutes(dataAccess))
    .use(productRoutes(dataAccess))
    .use(orderRoutes(dataAccess))
    .use(authRoutes(dataAccess));
}

/** The app's type, routes and schemas included: what Eden (`treaty<App>()`) would be typed with. */
export type App = ReturnType<typeof buildApp>;
