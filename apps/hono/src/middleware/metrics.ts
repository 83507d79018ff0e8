import { type HttpMetrics, UNMATCHED_ROUTE } from "@api-ref/server";
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { AppEnv } from "../env.ts";

/**
 * Counts and times every request by method, route template and status. It wraps everything else (`await next()`),
 * so it sees the final status, errors included. The label is the path of the last route Hono matched
 * (`routePath(c, -1)`: `/users/:id`, the prefix of a mounted app included), or what the not-found handler set.
 */
export const recordMetrics = (metrics: HttpMetrics) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const started = process.hrtime.bigint();
    await next();
    const route = c.var.route ?? (routePath(c, -1) || UNMATCHED_ROUTE);
    metrics.observe(c.req.method, route, c.res.status, Number(process.hrtime.bigint() - started) / 1e9);
  });
