import { unmatched } from "@api-ref/contract";
import { type HttpMetrics, UNMATCHED_ROUTE } from "@api-ref/server";
import type { RouterContext } from "@koa/router";
import type { Middleware } from "koa";

/**
 * Counts and times every request by method, route template and status. It sits outside the error middleware, so
 * it sees the final status; `ctx._matchedRoute` is the template @koa/router matched (`/users/:id`), a 405's its path's.
 */
export const recordMetrics =
  (metrics: HttpMetrics): Middleware =>
  async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const matched = (ctx as unknown as RouterContext)._matchedRoute;
      const route =
        (typeof matched === "string" ? matched : undefined) ??
        (ctx.status === 405 ? unmatched(ctx.method, ctx.url).template : undefined) ??
        UNMATCHED_ROUTE;
      metrics.observe(ctx.method, route, ctx.status, Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
