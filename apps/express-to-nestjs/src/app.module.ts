// The application in the middle of the migration: one Nest application on its Express platform. From the first
// step it owns everything cross-cutting (the server, request ids, metrics, the exception filter, the validation
// pipe, the 404/405, the database pool, the shutdown and the operational routes); it serves the resources moved
// so far from Nest modules, and every other request goes to the Express routers not moved yet, run by a Nest
// middleware (src/legacy/express.ts).
//
// Where each path lives today:
//   Nest     /, /health, /ready, /echo, /metrics, /openapi.json, /docs   MetaModule of apps/nestjs
//   Nest     /users, /users/:id                                         UsersModule of apps/nestjs (moved)
//   Express  /products, /products/:id, /orders, /orders/:id, /auth/*    apps/express/src/routes/*.ts (mounted)
//
// Who may call what is each world's own: Nest's routes by apps/nestjs's global guards (below), the Express routes by
// apps/express's `authenticate` and `requireAdmin` middleware, which its routers carry per route. One token, the
// same data access: a caller signed in for one world is signed in for the other. So is the rate limit of register
// and login: on Express, apps/express's express-rate-limit (src/legacy/express.ts); on Nest, once moved,
// apps/nestjs's AuthModule brings its throttler. The security headers are cross-cutting: helmet, once, on the one
// Express instance, in front of both worlds (apps/nestjs's Express platform, src/main.ts).

import { AuthGuard } from "@api-ref/nestjs/auth/auth.guard";
import { RolesGuard } from "@api-ref/nestjs/auth/roles.guard";
import { CommonModule } from "@api-ref/nestjs/common/common.module";
import type { AppConfig } from "@api-ref/nestjs/config";
import { EdgesModule } from "@api-ref/nestjs/edges/edges.module";
import { MetaModule } from "@api-ref/nestjs/meta/meta.module";
import { UsersModule } from "@api-ref/nestjs/users/users.module";
import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from "@nestjs/common";
import { APP_GUARD } from "@nestjs/core";
import { pino } from "pino";
import { LEGACY_LOGGER, LegacyExpressMiddleware, MixedRequestContextMiddleware } from "./legacy/express.ts";

export const FRAMEWORK = "express-to-nestjs";

/**
 * The root module: apps/nestjs's modules, imported rather than copied — CommonModule (configuration, metrics,
 * the one data access and its pool, route-label interceptor and shutdown grace), EdgesModule (the contract's
 * exception filter and validation pipe), the operational routes (MetaModule) and the resources moved so far
 * (UsersModule) — its global guards, and the two middlewares every request goes through first.
 */
@Module({})
export class AppModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [CommonModule.forRoot(config, FRAMEWORK), EdgesModule, MetaModule, UsersModule],
      providers: [
        // The Express error middleware logs through pino, as in apps/express; Nest's own logger logs the rest.
        { provide: LEGACY_LOGGER, useFactory: () => pino({ level: config.logLevel }) },
        // apps/nestjs's guards, in its order, for the Nest routes (@Public() and @Roles() are on its controllers).
        // They never see a request an Express router answered: those routers authenticate with apps/express's own
        // middleware, per route.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RolesGuard },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer) {
    // Every request, in this order: the request id and metrics first (so that both worlds have them), then the
    // Express routers; what they pass on reaches Nest's router. "/" is every path on Express (a prefix); a wildcard
    // would make Express decode the path first and fail on `/users/%zz` before any middleware ran.
    consumer.apply(MixedRequestContextMiddleware, LegacyExpressMiddleware).forRoutes("/");
  }
}
