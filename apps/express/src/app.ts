import type { DataAccess } from "@api-ref/data-access";
import type { HttpMetrics } from "@api-ref/server";
import express from "express";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { problemHandler } from "./edges/problems.ts";
import { securityHeaders } from "./edges/security-headers.ts";
import { notFound, strictPaths } from "./edges/strict-paths.ts";
import { recordMetrics } from "./middleware/metrics.ts";
import { requestId } from "./middleware/request-id.ts";
import { authRoutes } from "./routes/auth.ts";
import { metaRoutes } from "./routes/meta.ts";
import { orderRoutes } from "./routes/orders.ts";
import { productRoutes } from "./routes/products.ts";
import { userRoutes } from "./routes/users.ts";

export interface AppOptions {
  dataAccess: DataAccess;
  metrics: HttpMetrics;
  logger: Logger;
  /** Requests per client address and window to each of register and login (`config.authRateLimit`). */
  authRateLimit: number;
}

/**
 * Wires the API on Express: settings, app-wide middleware, one router per resource mounted at its prefix, then the
 * 404/405 and the error handler. The contract's edges (strict paths, JSON bodies, problems, security headers) are
 * in edges/.
 */
export function buildApp({ dataAccess, metrics, logger, authRateLimit }: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  // Strict paths, as the contract says: `/Users` and `/users/` are other paths (404).
  app.set("case sensitive routing", true);
  app.set("strict routing", true);
  // No ETags: no other framework here computes them by default, and each costs a hash of the body.
  app.set("etag", false);
  app.set("query parser", "simple");

  app.use(securityHeaders);
  app.use(requestId);
  app.use(recordMetrics(metrics));
  if (logger.level !== "silent") {
    app.use(
      pinoHttp({
        logger,
        genReqId: (_req, res) => res.getHeader("x-request-id") as string,
        // pino-http's default serializer logs every request header: a bearer token or a session cookie must not
        // reach a log line.
        redact: { paths: ["req.headers.authorization", "req.headers.cookie"], censor: "[Redacted]" },
      }),
    );
  }
  app.use(strictPaths);

  app.use(metaRoutes(dataAccess, metrics));
  app.use("/users", userRoutes(dataAccess));
  app.use("/products", productRoutes(dataAccess));
  app.use("/orders", orderRoutes(dataAccess));
  app.use("/auth", authRoutes(dataAccess, { authRateLimit }));

  app.use(notFound);
  app.use(problemHandler(logger));
  return app;
}
