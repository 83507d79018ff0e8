// The application in the middle of the migration: one Nest application on its Express platform. From the first
// step it owns everything cross-cutting (the server, request ids, metrics, the exception filter, the validation
// pipe, the 404/405, the database pool, the shutdown and the operational routes); it serves the resources moved
// so far from Nest modules, and every other request goes to the Express routers not moved yet, run by a Nest
// middleware (src/legacy/express.ts).
//
// Where each path lives today:
//   Nest     /, /health, /ready, /echo, /metrics, /openapi.json, /docs   src/meta/meta.controller.ts
//   Nest     /users, /users/:id                                         UsersModule of apps/nestjs (moved)
//   Express  /products, /products/:id, /orders, /orders/:id, /auth/*    apps/express/src/routes/*.ts (mounted)

import { createHttpMetrics } from "@api-ref/core";
import { ContractValidationPipe } from "@api-ref/nestjs/common/contract-validation.pipe";
import { ProblemFilter } from "@api-ref/nestjs/common/problem.filter";
import { RouteLabelInterceptor } from "@api-ref/nestjs/common/route-label.interceptor";
import { ShutdownGrace } from "@api-ref/nestjs/common/shutdown-grace";
import { APP_CONFIG, type AppConfig } from "@api-ref/nestjs/config";
import { DatabaseModule } from "@api-ref/nestjs/database/database.module";
import { METRICS } from "@api-ref/nestjs/metrics";
import { UsersModule } from "@api-ref/nestjs/users/users.module";
import { type DynamicModule, Global, type MiddlewareConsumer, Module, type NestModule } from "@nestjs/common";
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from "@nestjs/core";
import { pino } from "pino";
import { RequestContextMiddleware } from "./common/request-context.middleware.ts";
import { LEGACY_LOGGER, LegacyExpressMiddleware } from "./legacy/express.ts";
import { FRAMEWORK, MetaController } from "./meta/meta.controller.ts";

/**
 * The root module: apps/nestjs's pieces, imported rather than copied — its database module (the one pool, closed
 * once on shutdown), its UsersModule (controller and service), its exception filter, validation pipe, route-label
 * interceptor and shutdown grace, bound globally through Nest's DI tokens — with this app's metrics registry, its
 * operational routes, and the two middlewares every request goes through first.
 */
@Global()
@Module({})
export class AppModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [DatabaseModule, UsersModule],
      controllers: [MetaController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: METRICS, useFactory: () => createHttpMetrics(FRAMEWORK) },
        // The Express error middleware logs through pino, as in apps/express; Nest's own logger logs the rest.
        { provide: LEGACY_LOGGER, useFactory: () => pino({ level: config.logLevel }) },
        { provide: APP_FILTER, useClass: ProblemFilter },
        { provide: APP_PIPE, useClass: ContractValidationPipe },
        { provide: APP_INTERCEPTOR, useClass: RouteLabelInterceptor },
        ShutdownGrace,
      ],
      exports: [APP_CONFIG, METRICS],
    };
  }

  configure(consumer: MiddlewareConsumer) {
    // Every request, in this order: the request id and metrics first (so that both worlds have them), then the
    // Express routers; what they pass on reaches Nest's router. "/" is every path on Express (a prefix); a wildcard
    // would make Express decode the path first and fail on `/users/%zz` before any middleware ran.
    consumer.apply(RequestContextMiddleware, LegacyExpressMiddleware).forRoutes("/");
  }
}
