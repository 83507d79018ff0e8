// The application is a plugin: `app` wires the plugins and one route plugin per resource, each at its prefix, onto
// whatever Fastify instance registers it. `buildApp()` creates that instance with the server options a plugin cannot
// set (logger, request ids, router, body limit) and registers the app on it. The contract's edges (strict paths,
// JSON bodies, problems, security headers) are plugins and handlers in edges/.

import type { IncomingMessage } from "node:http";
import type { DataAccess } from "@api-ref/data-access";
import { type AppConfig, BODY_LIMIT_BYTES, HTTP_LIMITS, httpServerOptions, requestIdFrom } from "@api-ref/server";
import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import Fastify from "fastify";
import fp from "fastify-plugin";
import jsonBody from "./edges/json-body.ts";
import { problemHandler } from "./edges/problems.ts";
import securityHeaders from "./edges/security-headers.ts";
import strictPaths, { badUrlHandler, methodNotAllowed, notFoundHandler } from "./edges/strict-paths.ts";
import { compilersFor, type SchemaMode } from "./modes/index.ts";
import auth from "./plugins/app/auth.ts";
import metrics, { type MetricsOptions } from "./plugins/app/metrics.ts";
import requestId from "./plugins/app/request-id.ts";
import dataAccess from "./plugins/external/data-access.ts";
import rateLimit from "./plugins/external/rate-limit.ts";
import { authRoutes } from "./routes/auth.ts";
import { metaRoutes } from "./routes/meta.ts";
import { orderRoutes } from "./routes/orders.ts";
import { productRoutes } from "./routes/products.ts";
import { userRoutes } from "./routes/users.ts";

export interface AppOptions {
  config: Pick<AppConfig, "databaseUrl" | "jwtSecret" | "poolSize" | "logLevel" | "authRateLimit"> &
    Partial<Pick<AppConfig, "dataAccessMode" | "statementTimeoutMs">>;
  /** How the contract's Zod schemas become validators and serializers (see src/modes). */
  mode: SchemaMode;
  /** A data access to use instead of connecting to `config.databaseUrl` (the tests' fake); closed on close all the same. */
  dataAccess?: DataAccess;
}

/**
 * The app's plugins, before any route is added: the external data access first (the rest depend on it), then
 * the cross-cutting hooks (the security headers' first: the hooks after them may answer early, e.g. the strict
 * paths' 404) and the body parser, and the error and not-found handlers. fastify-plugin, so that all of it applies
 * to the instance that registers it (the express-to-fastify template registers it too).
 */
export const appPlugins = fp<Pick<AppOptions, "config" | "dataAccess"> & MetricsOptions>(
  async (fastify, { config, dataAccess: given, ...metricsOptions }) => {
    await fastify.register(dataAccess, {
      databaseUrl: config.databaseUrl,
      jwtSecret: config.jwtSecret,
      poolSize: config.poolSize,
      statementTimeoutMs: config.statementTimeoutMs,
      dataAccessMode: config.dataAccessMode,
      dataAccess: given,
    });
    await fastify.register(securityHeaders);
    await fastify.register(requestId);
    await fastify.register(metrics, metricsOptions);
    await fastify.register(jsonBody);
    await fastify.register(strictPaths);

    fastify.setErrorHandler(problemHandler);
    fastify.setNotFoundHandler(notFoundHandler);
  },
  { name: "app-plugins", fastify: "5.x" },
);

/** The API as a Fastify plugin (fastify-plugin, so that its handlers and compilers apply to the instance). */
export const app = fp<AppOptions>(
  async (fastify, { config, mode, dataAccess: given }) => {
    const { validatorCompiler, serializerCompiler } = compilersFor(mode);
    fastify.setValidatorCompiler(validatorCompiler);
    fastify.setSerializerCompiler(serializerCompiler);

    await fastify.register(appPlugins, { config, dataAccess: given });
    // The hooks routes list in `onRequest` (`fastify.authenticate`, `fastify.requireAdmin`). Not in appPlugins:
    // the express-to-fastify template registers it with its first migrated routes, not with the cross-cutting step.
    await fastify.register(auth);
    // The rate limit, which only register and login opt in to (`config.rateLimit`). Not in appPlugins either: it
    // moves with the auth routes (the express-to-fastify template's are still Express's, with Express's limiter).
    await fastify.register(rateLimit);

    await fastify.register(metaRoutes);
    await fastify.register(userRoutes, { prefix: "/users" });
    await fastify.register(productRoutes, { prefix: "/products" });
    await fastify.register(orderRoutes, { prefix: "/orders" });
    await fastify.register(authRoutes, { prefix: "/auth", authRateLimit: config.authRateLimit });
    // Last: the 405s of the paths registered above.
    await fastify.register(methodNotAllowed);
  },
  { name: "api", fastify: "5.x" },
);

/** find-my-way options (shared with the tests). */
export const routerOptions = {
  // Strict paths, as the contract says: `/Users` and `/users/` are other paths (these are Fastify's defaults).
  caseSensitive: true,
  ignoreTrailingSlash: false,
  ignoreDuplicateSlashes: false,
  // A path parameter of any length reaches validation (400), as in every other implementation; find-my-way's
  // default of 100 would answer a longer one with 414. Node caps the request line below this anyway.
  maxParamLength: 16 * 1024,
};

/** The server options a plugin cannot set, but the logger's (the express-to-fastify template uses them too). */
export const serverOptions = {
  // The request id is the client's `x-request-id` only when it is valid, so Fastify must not read the header
  // itself (`requestIdHeader` takes any value as it is): genReqId reads and checks it.
  requestIdHeader: false as const,
  genReqId: (req: IncomingMessage) => requestIdFrom(req.headers["x-request-id"]),
  bodyLimit: BODY_LIMIT_BYTES,
  // The contract's limits (@api-ref/server's limits.ts): node:http's options, and the two Fastify sets on the
  // server itself after creating it (its keep-alive default is 72 s).
  http: httpServerOptions,
  keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
  requestTimeout: HTTP_LIMITS.requestTimeoutMs,
  routerOptions,
  // During a graceful close, requests that still arrive on open connections are served (and told to close)
  // instead of getting Fastify's own 503 body.
  return503OnClosing: false,
  // A path parameter with a malformed escape (`/users/%zz`) fails in the router, before any route or hook.
  frameworkErrors: badUrlHandler,
};

export async function buildApp(options: AppOptions) {
  const fastify = Fastify({
    // Fastify's pino logger; no logger at all when silent, so a benchmark pays nothing for it.
    logger: options.config.logLevel === "silent" ? false : { level: options.config.logLevel },
    ...serverOptions,
  }).withTypeProvider<ZodTypeProvider>();
  await fastify.register(app, options);
  return fastify;
}
