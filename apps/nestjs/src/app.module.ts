import { type DynamicModule, Inject, type MiddlewareConsumer, Module, type NestModule } from "@nestjs/common";
import { APP_GUARD } from "@nestjs/core";
import { AuthGuard } from "./auth/auth.guard.ts";
import { AuthModule } from "./auth/auth.module.ts";
import { RolesGuard } from "./auth/roles.guard.ts";
import { CommonModule } from "./common/common.module.ts";
import { RequestContextMiddleware } from "./common/request-context.middleware.ts";
import { type AppConfig, PLATFORM, type Platform } from "./config.ts";
import { EdgesModule } from "./edges/edges.module.ts";
import { MetaModule } from "./meta/meta.module.ts";
import { OrdersModule } from "./orders/orders.module.ts";
import { ProductsModule } from "./products/products.module.ts";
import { UsersModule } from "./users/users.module.ts";

/**
 * The root module: what every route shares (CommonModule: configuration, metrics, the shared data access, the
 * route-label interceptor, the shutdown grace), the contract's edges (EdgesModule: the problems filter and the
 * validation pipe), one module per resource (each controller at its prefix: `@Controller("users")`), the global
 * guards, and the request-context middleware.
 */
@Module({})
export class AppModule implements NestModule {
  constructor(@Inject(PLATFORM) private readonly platform: Platform) {}

  static forRoot(config: AppConfig, platform: Platform): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CommonModule.forRoot(config, "nestjs"),
        EdgesModule,
        MetaModule,
        UsersModule,
        ProductsModule,
        OrdersModule,
        AuthModule,
      ],
      providers: [
        { provide: PLATFORM, useValue: platform },
        // Every route needs a signed-in caller unless it is @Public(), and a @Roles() route that role. Global guards
        // run in the order they are provided: RolesGuard reads the caller AuthGuard set.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RolesGuard },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer) {
    // Every request, on each platform in its own terms: "/" is a prefix on Express (a wildcard would make
    // Express decode the path first and fail on `/users/%zz` before the middleware runs), but only the root on
    // Fastify, where "*" is every path.
    consumer.apply(RequestContextMiddleware).forRoutes(this.platform === "express" ? "/" : "*");
  }
}
