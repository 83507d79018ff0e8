// The part of the API still on Express: the Express app's own routers, imported as they are, in one Express
// `Router` that a Nest middleware runs for every request. Moving a resource to Nest means deleting its line below
// and importing its Nest module in app.module.ts; when no line is left, this file goes.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DataAccess } from "@api-ref/data-access";
// The Express app, unchanged: its routers are factories over the shared dataAccess (paths relative to the prefix it
// mounts them at), its edges answer strict paths and render every error as problem+json.
import { problemHandler } from "@api-ref/express/edges/problems";
import { strictPaths } from "@api-ref/express/edges/strict-paths";
import { routeTemplate } from "@api-ref/express/middleware/metrics";
import { authRoutes } from "@api-ref/express/routes/auth";
import { orderRoutes } from "@api-ref/express/routes/orders";
import { productRoutes } from "@api-ref/express/routes/products";
import { RequestContextMiddleware } from "@api-ref/nestjs/common/request-context.middleware";
import { APP_CONFIG, type AppConfig } from "@api-ref/nestjs/config";
import { DATA_ACCESS } from "@api-ref/nestjs/data-access/data-access.module";
import { Inject, Injectable, type NestMiddleware } from "@nestjs/common";
import { type Request, type Response, Router } from "express";
import type { Logger } from "pino";

declare module "http" {
  interface IncomingMessage {
    /** pino-http's request logger in apps/express; not mounted here, so the error middleware uses its own. */
    log?: Logger;
  }
}

/** Injection token of the pino logger the Express error middleware logs with (see app.module.ts). */
export const LEGACY_LOGGER = Symbol("LEGACY_LOGGER");

/**
 * The routers not moved yet, each at the prefix apps/express mounts it at. Moving a resource to Nest means deleting its
 * line here and importing its Nest module in app.module.ts. `authRateLimit` is the limit of register and login
 * (`config.authRateLimit`), which the auth router enforces.
 */
export function expressMounts(dataAccess: DataAccess, { authRateLimit }: { authRateLimit: number }) {
  return [
    ["/products", productRoutes(dataAccess)],
    ["/orders", orderRoutes(dataAccess)],
    ["/auth", authRoutes(dataAccess, { authRateLimit })],
    // Moved to Nest (UsersModule of apps/nestjs, imported in app.module.ts): ["/users", userRoutes(dataAccess)],
  ] as const;
}

/** The routers not moved yet, then the Express error middleware: an Express `Router`, not an Express app. */
export function expressRouters(dataAccess: DataAccess, logger: Logger, options: { authRateLimit: number }) {
  const router = Router();
  // Still on Express. Each router answers its own paths and calls next() for any other path or method: Nest then
  // routes the request itself, and its filter answers the 405 or 404. A router mounted at `/products` would take
  // `/products/` for its `/` too: apps/express's `strictPaths` edge answers such paths first, as in apps/express.
  // Each router also authenticates its own routes (apps/express's `authenticate`, `requireAdmin`, per route): an auth
  // middleware here, `router.use()`d for every path, would refuse Nest's public routes too. The auth router limits
  // its register and login with express-rate-limit, per route, as in apps/express (the key is `req.ip`: the socket's
  // address, since Nest's Express instance trusts no proxy); moved to Nest, they get apps/nestjs's AuthModule and its
  // throttler instead.
  for (const [prefix, routes] of expressMounts(dataAccess, options)) router.use(prefix, strictPaths, routes);

  // No catch-all 404 here: it would answer every path Nest serves, since this runs first. Errors raised in the
  // routers stop here, in Express's own error middleware. Past it, the middleware's `next(error)` reaches Nest's
  // exception filter, which renders `ProblemError`s but knows nothing of body-parser's errors: without this line
  // a body over 1 MiB on POST /products came out as a 500 instead of the 413.
  router.use(problemHandler(logger));
  return router;
}

/**
 * Runs the Express routers in front of Nest's router. A Nest middleware (bound to every path in app.module.ts),
 * so it gets the shared data access by injection, and runs after the request-context middleware bound before it.
 * Not an Express app: a mounted app swaps the prototypes of `req` and `res` for its own and runs with its own
 * settings (query parser, ETags); a `Router` runs with the settings of the Express instance Nest owns.
 */
@Injectable()
export class LegacyExpressMiddleware implements NestMiddleware<IncomingMessage, ServerResponse> {
  private readonly router: Router;

  constructor(
    @Inject(DATA_ACCESS) dataAccess: DataAccess,
    @Inject(LEGACY_LOGGER) logger: Logger,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.router = expressRouters(dataAccess, logger, config);
  }

  use(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) {
    this.router(req as Request, res as Response, next);
  }
}

/**
 * apps/nestjs's request-context middleware (request id, metrics), which labels a request with the template of the
 * Nest route that served it; here, else with the one an Express router matched (apps/express's `routeTemplate`:
 * the mount prefix and `req.route.path`, which Express's router sets on the request). It goes with the last Express
 * router: app.module.ts then binds apps/nestjs's own.
 */
@Injectable()
export class MixedRequestContextMiddleware extends RequestContextMiddleware {
  protected override routeOf(req: IncomingMessage) {
    return super.routeOf(req) ?? routeTemplate(req as Request);
  }
}
