import { createHttpMetrics } from "@api-ref/core";
import { type DynamicModule, Global, Inject, type MiddlewareConsumer, Module, type NestModule } from "@nestjs/common";
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from "@nestjs/core";
import { AuthModule } from "./auth/auth.module.ts";
import { ContractValidationPipe } from "./common/contract-validation.pipe.ts";
import { ProblemFilter } from "./common/problem.filter.ts";
import { RequestContextMiddleware } from "./common/request-context.middleware.ts";
import { RouteLabelInterceptor } from "./common/route-label.interceptor.ts";
import { ShutdownGrace } from "./common/shutdown-grace.ts";
import { APP_CONFIG, type AppConfig, PLATFORM, type Platform } from "./config.ts";
import { DatabaseModule } from "./database/database.module.ts";
import { MetaModule } from "./meta/meta.module.ts";
import { METRICS } from "./metrics.ts";
import { OrdersModule } from "./orders/orders.module.ts";
import { ProductsModule } from "./products/products.module.ts";
import { UsersModule } from "./users/users.module.ts";

/**
 * The root module: the configuration and the metrics as global providers, the shared data access, one module
 * per resource, and the cross-cutting pieces bound globally through Nest's DI tokens — the problem+json filter,
 * the contract's validation pipe, the route-label interceptor — plus the request-context middleware.
 */
@Global()
@Module({})
export class AppModule implements NestModule {
  constructor(@Inject(PLATFORM) private readonly platform: Platform) {}

  static forRoot(config: AppConfig, platform: Platform): DynamicModule {
    return {
      module: AppModule,
      imports: [DatabaseModule, MetaModule, UsersModule, ProductsModule, OrdersModule, AuthModule],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: PLATFORM, useValue: platform },
        { provide: METRICS, useFactory: () => createHttpMetrics("nestjs") },
        { provide: APP_FILTER, useClass: ProblemFilter },
        { provide: APP_PIPE, useClass: ContractValidationPipe },
        { provide: APP_INTERCEPTOR, useClass: RouteLabelInterceptor },
        ShutdownGrace,
      ],
      exports: [APP_CONFIG, METRICS],
    };
  }

  configure(consumer: MiddlewareConsumer) {
    // Every request, on each platform in its own terms: "/" is a prefix on Express (a wildcard would make
    // Express decode the path first and fail on `/users/%zz` before the middleware runs), but only the root on
    // Fastify, where "*" is every path.
    consumer.apply(RequestContextMiddleware).forRoutes(this.platform === "express" ? "/" : "*");
  }
}
