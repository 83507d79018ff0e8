import { createDataAccess, type DataAccess } from "@api-ref/data-access";
import { Global, Inject, Module, type OnApplicationShutdown, type Provider } from "@nestjs/common";
import { APP_CONFIG, type AppConfig } from "../config.ts";

/**
 * Injection token of the shared data access (`@api-ref/data-access`'s `createDataAccess()`: one pool, four
 * repositories).
 */
export const DATA_ACCESS = Symbol("DATA_ACCESS");

// One injection token per repository, named for its type: a controller asks for `@Inject(UsersRepository)` and
// gets the data access's `users`, the same object every other Node implementation queries through.
export const UsersRepository = Symbol("UsersRepository");
export type UsersRepository = DataAccess["users"];
export const ProductsRepository = Symbol("ProductsRepository");
export type ProductsRepository = DataAccess["products"];
export const OrdersRepository = Symbol("OrdersRepository");
export type OrdersRepository = DataAccess["orders"];
export const AuthRepository = Symbol("AuthRepository");
export type AuthRepository = DataAccess["auth"];

const repository = (token: symbol, of: (dataAccess: DataAccess) => unknown): Provider => ({
  provide: token,
  useFactory: of,
  inject: [DATA_ACCESS],
});

/**
 * The shared data access as global providers: the whole object under `DATA_ACCESS` (readiness pings it), and
 * each repository under its own token, so that a controller injects the one it uses and a test overrides just
 * that. The module closes the pool once the HTTP server has stopped taking requests (`onApplicationShutdown` runs
 * after Nest has closed the server).
 */
@Global()
@Module({
  providers: [
    {
      provide: DATA_ACCESS,
      useFactory: (config: AppConfig): DataAccess => createDataAccess(config),
      inject: [APP_CONFIG],
    },
    repository(UsersRepository, (dataAccess) => dataAccess.users),
    repository(ProductsRepository, (dataAccess) => dataAccess.products),
    repository(OrdersRepository, (dataAccess) => dataAccess.orders),
    repository(AuthRepository, (dataAccess) => dataAccess.auth),
  ],
  exports: [DATA_ACCESS, UsersRepository, ProductsRepository, OrdersRepository, AuthRepository],
})
export class DataAccessModule implements OnApplicationShutdown {
  constructor(@Inject(DATA_ACCESS) private readonly dataAccess: DataAccess) {}

  async onApplicationShutdown() {
    await this.dataAccess.close();
  }
}
