import { type AppConfig, createHttpMetrics } from "@api-ref/server";
import { type DynamicModule, Global, Module } from "@nestjs/common";
import { APP_INTERCEPTOR } from "@nestjs/core";
import { APP_CONFIG } from "../config.ts";
import { DataAccessModule } from "../data-access/data-access.module.ts";
import { FRAMEWORK, METRICS } from "../metrics.ts";
import { RouteLabelInterceptor } from "./route-label.interceptor.ts";
import { ShutdownGrace } from "./shutdown-grace.ts";

/**
 * What every route of the application shares, whatever module serves it: the configuration, the server's name
 * and its metrics as global providers, the shared data access, the route-label interceptor bound globally through
 * Nest's DI token, and the bounded graceful shutdown. The contract's filter and pipe are EdgesModule's.
 */
@Global()
@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest dynamic module is a class with a static forRoot().
export class CommonModule {
  static forRoot(config: AppConfig, framework: string): DynamicModule {
    return {
      module: CommonModule,
      imports: [DataAccessModule],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: FRAMEWORK, useValue: framework },
        { provide: METRICS, useFactory: () => createHttpMetrics(framework) },
        { provide: APP_INTERCEPTOR, useClass: RouteLabelInterceptor },
        ShutdownGrace,
      ],
      exports: [APP_CONFIG, FRAMEWORK, METRICS],
    };
  }
}
