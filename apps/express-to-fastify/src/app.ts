// The server in the middle of the migration: one Fastify instance. From the first step it owns everything
// cross-cutting (the server, request ids, logging, metrics, errors, the 404, the operational routes), with the
// Fastify app's own plugins; it serves the resources moved so far with the Fastify app's route plugins, and every
// other request goes to the Express routers not moved yet, mounted through @fastify/express (src/legacy/express.ts).
//
// Where each path lives today:
//   Fastify  /, /health, /ready, /echo, /metrics, /openapi.json, /docs   apps/fastify/src/routes/meta.ts
//   Fastify  /products, /products/:id                                     apps/fastify/src/routes/products.ts (moved)
//   Express  /users, /users/:id, /orders, /orders/:id, /auth/*            apps/express/src/routes/*.ts (mounted)
//
// Who is calling, in each half: the Express routers bring apps/express's own `authenticate`/`requireAdmin` middleware;
// the routes moved to Fastify list apps/fastify's `fastify.authenticate`/`fastify.requireAdmin` hooks. Both ask the
// data access's `auth.authenticate` on the one data access, so one token works on both halves. The same split for the
// rate limit on register and login: they are still Express routes, limited by apps/express's express-rate-limit. The
// security headers are cross-cutting, Fastify's for both worlds (see legacy/express.ts).

import type { DataAccess } from "@api-ref/data-access";
import { appPlugins, serverOptions } from "@api-ref/fastify/app";
import { methodNotAllowed } from "@api-ref/fastify/edges/strict-paths";
import auth from "@api-ref/fastify/plugins/app/auth";
import { metaRoutes } from "@api-ref/fastify/routes/meta";
import { productRoutes } from "@api-ref/fastify/routes/products";
import type { AppConfig } from "@api-ref/server";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "@fastify/type-provider-zod";
import Fastify from "fastify";
import fp from "fastify-plugin";
import { type Logger, pino } from "pino";
import expressRouters, { expressRoute } from "./legacy/express.ts";

export const FRAMEWORK = "express-to-fastify";

export interface AppOptions {
  config: Pick<AppConfig, "databaseUrl" | "jwtSecret" | "poolSize" | "logLevel" | "authRateLimit"> &
    Partial<Pick<AppConfig, "dataAccessMode" | "statementTimeoutMs">>;
  /** A data access to use instead of connecting to `config.databaseUrl` (the tests' fake); closed on close all the same. */
  dataAccess?: DataAccess;
}

/** The API as a Fastify plugin (fastify-plugin, so that its hooks and handlers apply to the whole instance). */
export const app = fp<AppOptions & { logger: Logger }>(
  async (fastify, { config, dataAccess, logger }) => {
    fastify.setValidatorCompiler(validatorCompiler);
    fastify.setSerializerCompiler(serializerCompiler);

    // The Fastify app's plugins (data access, security headers, request id, metrics, JSON body, strict paths, errors
    // and 404), the metrics labelled with the Express route that answered when no Fastify route did.
    await fastify.register(appPlugins, { config, dataAccess, framework: FRAMEWORK, routeOf: expressRoute });
    // The Express routers, in an onRequest hook: after the request id, before Fastify reads a body. At the root
    // (fastify-plugin), because to Fastify /users is a path it has no route for: only hooks of the root instance
    // run on its not-found route, which is where Express must get the request.
    await fastify.register(expressRouters, { logger, authRateLimit: config.authRateLimit });

    // The Fastify half's auth hooks, moved with products (the first resource with admin routes): decorators only,
    // run by the routes that list them, so the Express paths keep their own middleware until they move.
    await fastify.register(auth);
    await fastify.register(metaRoutes);
    await fastify.register(productRoutes, { prefix: "/products" });
    // The 405s of the paths Fastify serves (apps/fastify's edges); the Express paths' go to its not-found handler.
    await fastify.register(methodNotAllowed);
  },
  { name: "api", fastify: "5.x" },
);

export async function buildApp(options: AppOptions) {
  // One pino logger: Fastify's (each request's child logger is also Express's `req.log`); the Express error
  // middleware takes it as its fallback. With `silent`, Fastify gets no logger at all, so a benchmark pays nothing.
  const logger = pino({ level: options.config.logLevel });
  const fastify = Fastify({
    ...(options.config.logLevel === "silent" ? { logger: false } : { loggerInstance: logger }),
    ...serverOptions,
  }).withTypeProvider<ZodTypeProvider>();
  await fastify.register(app, { ...options, logger });
  return fastify;
}
