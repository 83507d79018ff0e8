import { createDataAccess, type DataAccess } from "@api-ref/core";
import { Global, Inject, Module, type OnApplicationShutdown } from "@nestjs/common";
import { APP_CONFIG, type AppConfig } from "../config.ts";

/** Injection token of the shared data access (`@api-ref/core`'s `createDataAccess()`). */
export const DATABASE = Symbol("DATABASE");

/**
 * The shared data access as one global provider: every resource's service injects it, so that the SQL a route
 * runs is the same as in every other Node implementation. The module closes the pool once the HTTP server has
 * stopped taking requests (`onApplicationShutdown` runs after Nest has closed the server).
 */
@Global()
@Module({
  providers: [
    {
      provide: DATABASE,
      useFactory: (config: AppConfig): DataAccess => createDataAccess(config),
      inject: [APP_CONFIG],
    },
  ],
  exports: [DATABASE],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE) private readonly database: DataAccess) {}

  async onApplicationShutdown() {
    await this.database.close();
  }
}
