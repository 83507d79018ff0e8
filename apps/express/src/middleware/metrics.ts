import { rawPathOf, unmatched } from "@api-ref/contract";
import { type HttpMetrics, UNMATCHED_ROUTE } from "@api-ref/server";
import type { Request, RequestHandler } from "express";

/**
 * The template of the route that matched, mount prefix included (`/users` + `/:id`). `req.baseUrl` is reset once
 * an error leaves the router, so the prefix is read off the path: its segments before the route's own.
 */
export function routeTemplate(req: Request): string | undefined {
  const route = req.route?.path as string | undefined;
  if (route === undefined) return undefined;
  const own = route === "/" ? 0 : route.split("/").length - 1;
  const segments = rawPathOf(req.originalUrl).split("/");
  const prefix = segments.slice(0, segments.length - own).join("/");
  return route === "/" ? prefix || "/" : `${prefix}${route}`;
}

/** Counts and times every request by method, route template and status (a 405's: its path's template). */
export const recordMetrics =
  (metrics: HttpMetrics): RequestHandler =>
  (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const route =
        routeTemplate(req) ??
        (res.statusCode === 405 ? unmatched(req.method, req.originalUrl).template : undefined) ??
        UNMATCHED_ROUTE;
      metrics.observe(req.method, route, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
