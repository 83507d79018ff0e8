// The server in the middle of the migration: one Fastify instance. From the first step it owns everything
// cross-cutting (the server, request ids, logging, metrics, errors, the 404, the operational routes); it serves the
// resources moved so far as native route plugins, and every other request goes to the Express routers not moved
// yet, mounted through @fastify/express (src/legacy/express.ts).
//
// Where each path lives today:
//   Fastify  /, /health, /ready, /echo, /metrics, /openapi.json, /docs   src/routes/meta.ts
//   Fastify  /products, /products/:id                                     src/routes/products.ts (moved)
//   Express  /users, /users/:id, /orders, /orders/:id, /auth/*            apps/express/src/routes/*.ts (mounted)

import { type AppConfig, BODY_LIMIT_BYTES, HTTP_LIMITS, httpServerOptions, requestIdFrom } from "@api-ref/core";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "@fastify/type-provider-zod";
import Fastify from "fastify";
import fp from "fastify-plugin";
import { type Logger, pino } from "pino";
import { badUrlHandler, notFoundHandler, problemHandler } from "./errors.ts";
import expressRouters from "./legacy/express.ts";
import dataAccess from "./plugins/data-access.ts";
import jsonBody from "./plugins/json-body.ts";
import metrics from "./plugins/metrics.ts";
import requestId from "./plugins/request-id.ts";
import strictPaths from "./plugins/strict-paths.ts";
import { FRAMEWORK, metaRoutes } from "./routes/meta.ts";
import { productRoutes } from "./routes/products.ts";

export interface AppOptions {
  config: Pick<AppConfig, "databaseUrl" | "jwtSecret" | "poolSize" | "logLevel"> &
    Partial<Pick<AppConfig, "dataAccessMode">>;
}

/** The API as a Fastify plugin (fastify-plugin, so that its hooks and handlers apply to the whole instance). */
export const app = fp<AppOptions & { logger: Logger }>(
  async (fastify, { config, logger }) => {
    fastify.setValidatorCompiler(validatorCompiler);
    fastify.setSerializerCompiler(serializerCompiler);

    await fastify.register(dataAccess, {
      databaseUrl: config.databaseUrl,
      jwtSecret: config.jwtSecret,
      poolSize: config.poolSize,
      dataAccessMode: config.dataAccessMode,
    });
    // Cross-cutting hooks, in the order they run: the request id first (Express then sees it on the response),
    // the metrics of both worlds, the body parser and strict paths of the native routes.
    await fastify.register(requestId);
    await fastify.register(metrics, { framework: FRAMEWORK });
    await fastify.register(jsonBody);
    await fastify.register(strictPaths);
    // The Express routers, in an onRequest hook: after the hooks above, before Fastify reads a body. At the root
    // (fastify-plugin), because to Fastify /users is a path it has no route for: only hooks of the root instance
    // run on its not-found route, which is where Express must get the request.
    await fastify.register(expressRouters, { logger });

    fastify.setErrorHandler(problemHandler);
    fastify.setNotFoundHandler(notFoundHandler);

    await fastify.register(metaRoutes);
    await fastify.register(productRoutes);
  },
  { name: "api", fastify: "5.x" },
);

/** find-my-way options: strict paths, as the contract and the Express routers have them. */
export const routerOptions = {
  caseSensitive: true,
  ignoreTrailingSlash: false,
  ignoreDuplicateSlashes: false,
  // Any id reaches validation (400), as on the Express side; find-my-way's default of 100 would answer 414.
  maxParamLength: 16 * 1024,
};

export async function buildApp(options: AppOptions) {
  // One pino logger: Fastify's (each request's child logger is also Express's `req.log`); the Express error
  // middleware takes it as its fallback. With `silent`, Fastify gets no logger at all, so a benchmark pays nothing.
  const logger = pino({ level: options.config.logLevel });
  const fastify = Fastify({
    ...(options.config.logLevel === "silent" ? { logger: false } : { loggerInstance: logger }),
    // The request id is the client's `x-request-id` only when it is valid (`requestIdHeader` would take any value).
    requestIdHeader: false,
    genReqId: (req) => requestIdFrom(req.headers["x-request-id"]),
    bodyLimit: BODY_LIMIT_BYTES,
    // The contract's limits (@api-ref/core's limits.ts): node:http's options, and the two Fastify sets on the
    // server itself after creating it (its keep-alive default is 72 s).
    http: httpServerOptions,
    keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
    requestTimeout: HTTP_LIMITS.requestTimeoutMs,
    routerOptions,
    // During a graceful close, requests still arriving on open connections are served, not given Fastify's 503 body.
    return503OnClosing: false,
    frameworkErrors: badUrlHandler,
  }).withTypeProvider<ZodTypeProvider>();
  await fastify.register(app, { ...options, logger });
  return fastify;
}
