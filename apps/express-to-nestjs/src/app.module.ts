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

import { CommonModule } from "@api-ref/nestjs/common/common.module";
import type { AppConfig } from "@api-ref/nestjs/config";
import { MetaModule } from "@api-ref/nestjs/meta/meta.module";
import { UsersModule } from "@api-ref/nestjs/users/users.module";
import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from "@nestjs/common";
import { pino } from "pino";
import { LEGACY_LOGGER, LegacyExpressMiddleware, MixedRequestContextMiddleware } from "./legacy/express.ts";

export const FRAMEWORK = "express-to-nestjs";

/**
 * The root module: apps/nestjs's modules, imported rather than copied — CommonModule (configuration, metrics,
 * the one data access and its pool, the exception filter, validation pipe, route-label interceptor and shutdown
 * grace), the operational routes (MetaModule) and the resources moved so far (UsersModule) — and the two
 * middlewares every request goes through first.
 */
@Module({})
export class AppModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [CommonModule.forRoot(config, FRAMEWORK), MetaModule, UsersModule],
      // The Express error middleware logs through pino, as in apps/express; Nest's own logger logs the rest.
      providers: [{ provide: LEGACY_LOGGER, useFactory: () => pino({ level: config.logLevel }) }],
    };
  }

  configure(consumer: MiddlewareConsumer) {
    // Every request, in this order: the request id and metrics first (so that both worlds have them), then the
    // Express routers; what they pass on reaches Nest's router. "/" is every path on Express (a prefix); a wildcard
    // would make Express decode the path first and fail on `/users/%zz` before any middleware ran.
    consumer.apply(MixedRequestContextMiddleware, LegacyExpressMiddleware).forRoutes("/");
  }
}
