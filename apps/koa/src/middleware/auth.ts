import { requireAdmin as adminOnly, type DataAccess, type Principal } from "@api-ref/data-access";
import type { Middleware } from "koa";

declare module "koa" {
  interface DefaultState {
    /**
     * The caller, where koa-jwt puts it: set by `authenticate`, read only by the routes that list it. Declared on
     * Koa's `DefaultState` (the augmentation point @types/koa documents) so that it is typed next to the state
     * `validate` adds: @koa/router types a route's state from one middleware, not the intersection of several.
     */
    user: Principal;
  }
}

/**
 * Who is calling: the data access verifies the bearer token and reads the user's current role, or throws the 401 with
 * its `www-authenticate` challenge. Listed on each route before `jsonBody` and `validate`, so that a caller who may not
 * call a route learns nothing about its body (the contract's order: 401, 403, then 415, 413, 400).
 */
export const authenticate =
  ({ auth }: DataAccess): Middleware =>
  async (ctx, next) => {
    ctx.state.user = await auth.authenticate(ctx.get("authorization") || undefined);
    await next();
  };

/** After `authenticate` on the admin routes: a customer is a 403 (the data access's `requireAdmin`). */
export const requireAdmin: Middleware = async (ctx, next) => {
  adminOnly(ctx.state.user);
  await next();
};
