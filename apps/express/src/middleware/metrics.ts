import { type HttpMetrics, UNMATCHED_ROUTE } from "@api-ref/core";
import type { RequestHandler } from "express";

/** Counts and times every request by method, route template (`req.route.path`) and status. */
export const recordMetrics =
  (metrics: HttpMetrics): RequestHandler =>
  (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const route = (req.route?.path as string | undefined) ?? UNMATCHED_ROUTE;
      metrics.observe(req.method, route, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
