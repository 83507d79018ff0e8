import type { DataAccess } from "@api-ref/data-access";
// The middleware and edges Express 4 and 5 run alike, imported unchanged from apps/express.
import { problemHandler } from "@api-ref/express/edges/problems";
import { securityHeaders } from "@api-ref/express/edges/security-headers";
import { notFound, strictPaths } from "@api-ref/express/edges/strict-paths";
import { recordMetrics } from "@api-ref/express/middleware/metrics";
import { requestId } from "@api-ref/express/middleware/request-id";
import type { HttpMetrics } from "@api-ref/server";
import express from "express4";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
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
 * Wires the API on Express 4, as apps/express does on Express 5: settings, app-wide middleware, one router per
 * resource mounted at its prefix, then the 404/405 and the error handler (apps/express's edges/).
 */
export function buildApp({ dataAccess, metrics, logger, authRateLimit }: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  // Strict paths, as the contract says: `/Users` and `/users/` are other paths (404).
  app.set("case sensitive routing", true);
  app.set("strict routing", true);
  // No ETags: no other framework here computes them by default, and each costs a hash of the body.
  app.set("etag", false);
  // Express 4's default is "extended" (qs: `?a[b]=1` becomes an object); Express 5's is "simple", as here.
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
