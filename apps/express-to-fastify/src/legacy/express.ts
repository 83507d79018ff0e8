// The part of the API still on Express: the Express app's own routers, imported as they are, in an Express
// sub-app mounted into Fastify through @fastify/express. Moving a resource to Fastify means deleting its line
// below and registering its route plugin in app.ts; when no line is left, this file and @fastify/express go.
import type { DataAccess } from "@api-ref/data-access";
// The Express app, unchanged: its routers are factories over the shared dataAccess, its error middleware renders
// every error as problem+json.
import { problemHandler } from "@api-ref/express/edges/problems";
import { strictPaths } from "@api-ref/express/edges/strict-paths";
import { routeTemplate } from "@api-ref/express/middleware/metrics";
import { authRoutes } from "@api-ref/express/routes/auth";
import { orderRoutes } from "@api-ref/express/routes/orders";
import { userRoutes } from "@api-ref/express/routes/users";
import fastifyExpress from "@fastify/express";
import express, { type Request, type RequestHandler } from "express";
import type { FastifyBaseLogger, FastifyRequest, onRequestHookHandler } from "fastify";
import fp from "fastify-plugin";
import type { Logger } from "pino";

declare module "http" {
  interface IncomingMessage {
    /** Fastify's request logger, which @fastify/express puts on Express's `req` (apps/express has pino-http's). */
    log: FastifyBaseLogger;
  }
}

/**
 * @fastify/express hands Express `decodeURI(url)`, not the URL as sent. Express then decodes the query string and
 * path parameters a second time (`?q=%2541` searches for `A` instead of `%41`), and a malformed escape in the
 * query (`?q=%zz`, which Express's query parser takes as it is) throws in the plugin's hook: a 500 on a native
 * route, a wrong 405 on an Express one. Doubling every `%` first makes that `decodeURI` give back the URL as sent.
 * (A malformed escape in the path never gets this far: Fastify's router refuses it, see `badUrlHandler`.)
 */
const keepUrlAsSent: onRequestHookHandler = (request, _reply, done) => {
  const url = request.raw.url;
  if (url?.includes("%")) request.raw.url = url.replaceAll("%", "%25");
  done();
};

/** …and `req.originalUrl`, which the plugin sets to the URL it was given, is the URL as sent again. */
const restoreOriginalUrl: RequestHandler = (req, _res, next) => {
  req.originalUrl = req.url;
  next();
};

export interface ExpressRoutersOptions {
  logger: Logger;
  /** Requests per client address and window to each of register and login (`config.authRateLimit`). */
  authRateLimit: number;
}

/** The Express sub-app: the settings of apps/express/src/app.ts, the routers not moved yet, the error middleware. */
export function expressRouters(
  dataAccess: DataAccess,
  logger: Logger,
  { authRateLimit }: Pick<ExpressRoutersOptions, "authRateLimit">,
) {
  const app = express();
  // The settings of the Express app (see its README): a mounted sub-app uses its own.
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  app.use(restoreOriginalUrl);
  // Not apps/express's `securityHeaders` (helmet): Fastify's @fastify/helmet owns the security headers of every
  // response, these routers' included. Its onRequest hooks (apps/fastify's edges/security-headers.ts, in
  // appPlugins) run before this sub-app and write them on the raw response Express answers on; Fastify needs them
  // anyway for what only it answers (native routes, the 404, a path it cannot decode). Express's helmet here would
  // write the same headers a second time on every request: two configurations to keep equal, the later one
  // silently winning. They are cross-cutting, like the request id: one owner, the server's.

  // apps/express's strict paths: Express's router would answer OPTIONS itself (Fastify's strict paths answer any
  // path that is no contract path before this sub-app runs).
  app.use(strictPaths);

  // Still on Express, each router at its prefix as in apps/express, with its own `authenticate`/`requireAdmin`
  // middleware per route (apps/express's middleware/auth.ts). Any other request, another method on these paths
  // included, goes on to Fastify, whose not-found handler answers the 404 or 405. Register and login bring their
  // express-rate-limit limiter (apps/express's middleware/rate-limit.ts): it moves with the routes, to
  // @fastify/rate-limit.
  app.use("/users", userRoutes(dataAccess));
  app.use("/orders", orderRoutes(dataAccess));
  app.use("/auth", authRoutes(dataAccess, { authRateLimit }));
  // Moved to Fastify (apps/fastify's src/routes/products.ts, registered in app.ts):
  // app.use("/products", productRoutes(dataAccess));

  // No catch-all 404 here: it would answer every path Fastify serves, since Express runs first. Errors raised in
  // the routers must stop here, in Express's own error middleware. Past it they would reach Fastify's error handler,
  // on Fastify's not-found route, which knows nothing of body-parser's errors: a 413 would come out as a 405.
  app.use(problemHandler(logger));
  return app;
}

/**
 * The template of the Express route that answered, if one did (apps/express's `routeTemplate`, from the route
 * Express's router set on the raw request): the `route` label of its metrics, where a Fastify route gives its own.
 */
export const expressRoute = (request: FastifyRequest) => routeTemplate(request.raw as Request);

/** Mounts the Express routers in front of Fastify's router: @fastify/express runs them in an `onRequest` hook. */
export default fp<ExpressRoutersOptions>(
  async (fastify, { logger, authRateLimit }) => {
    fastify.addHook("onRequest", keepUrlAsSent);
    await fastify.register(fastifyExpress);
    fastify.use(expressRouters(fastify.dataAccess, logger, { authRateLimit }));
  },
  { name: "express-routers", dependencies: ["data-access", "security-headers", "request-id"] },
);
