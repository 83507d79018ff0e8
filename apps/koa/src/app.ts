import type { DataAccess } from "@api-ref/data-access";
import type { HttpMetrics } from "@api-ref/server";
import Koa from "koa";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { problemHandler } from "./edges/problems.ts";
import { securityHeaders } from "./edges/security-headers.ts";
import { strictPaths } from "./edges/strict-paths.ts";
import { recordMetrics } from "./middleware/metrics.ts";
import { requestId } from "./middleware/request-id.ts";
import { authRoutes } from "./routes/auth.ts";
import { metaRoutes } from "./routes/meta.ts";
import { orderRoutes } from "./routes/orders.ts";
import { productRoutes } from "./routes/products.ts";
import { userRoutes } from "./routes/users.ts";

/** The headers whose values are credentials (a bearer token, a session), as pino's redact paths. */
const REDACTED_HEADERS = ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'];

export interface AppOptions {
  dataAccess: DataAccess;
  metrics: HttpMetrics;
  logger: Logger;
  /** Requests per client address and window to each of register and login (`config.authRateLimit`). */
  authRateLimit: number;
}

/**
 * Wires the API on Koa: middleware as an onion, outermost first, then one router per resource with its prefix. The
 * contract's edges (strict paths, JSON bodies, problems, security headers) are in edges/.
 */
export function buildApp({ dataAccess, metrics, logger, authRateLimit }: AppOptions) {
  const app = new Koa();

  // Every response gets the security headers and the request id; metrics see the final status.
  app.use(securityHeaders);
  app.use(requestId);
  app.use(recordMetrics(metrics));
  if (logger.level !== "silent") {
    // pino-http is what koa-pino-logger wraps; mounted only when logging is on, so a benchmark pays nothing for it.
    // Credentials never reach a log line: the headers that carry them are censored in every line it writes.
    const log = pinoHttp({
      logger,
      genReqId: (_req, res) => res.getHeader("x-request-id") as string,
      redact: { paths: REDACTED_HEADERS, censor: "[Redacted]" },
    });
    app.use((ctx, next) => {
      log(ctx.req, ctx.res);
      return next();
    });
  }
  app.use(problemHandler(logger));
  app.use(strictPaths);

  app.use(metaRoutes(dataAccess, metrics).routes());
  app.use(userRoutes(dataAccess).prefix("/users").routes());
  app.use(productRoutes(dataAccess).prefix("/products").routes());
  app.use(orderRoutes(dataAccess).prefix("/orders").routes());
  app.use(authRoutes(dataAccess, authRateLimit).prefix("/auth").routes());
  return app;
}
