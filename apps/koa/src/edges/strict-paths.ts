import { isContractPath, unmatched } from "@api-ref/contract";
import type { Middleware } from "koa";

/**
 * Inside the error middleware, before the routers. The routers are not `strict` (@koa/router's strict mode turns a
 * prefixed `/` into `/users/`), so the contract's strict paths are kept here: a path that is no contract path as
 * sent (`/users/`, `/Users`) is a 404; when no route answered, 405 with `allow` on a path the contract serves.
 */
export const strictPaths: Middleware = async (ctx, next) => {
  if (!isContractPath(ctx.url)) throw unmatched(ctx.method, ctx.url).problem;
  await next();
  if (ctx.status === 404 && ctx.body === undefined) throw unmatched(ctx.method, ctx.url).problem;
};
