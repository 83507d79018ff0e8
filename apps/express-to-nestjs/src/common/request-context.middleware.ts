import type { IncomingMessage, ServerResponse } from "node:http";
import { type HttpMetrics, requestIdFrom, UNMATCHED_ROUTE } from "@api-ref/core";
import { routeLabelOf } from "@api-ref/nestjs/common/http";
import { METRICS } from "@api-ref/nestjs/metrics";
import { Inject, Injectable, type NestMiddleware } from "@nestjs/common";
import type { Request } from "express";

/**
 * apps/nestjs's request-context middleware with one line more: runs first for every request, whichever world
 * answers it; sets `x-request-id` on the response, errors included, and records the request's metrics once the
 * response has been sent. The `route` label is the template Nest served (apps/nestjs's route-label interceptor
 * and filter record it), else the one an Express router matched (`req.route.path`, the line to delete with the
 * last Express router), else `unmatched`.
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware<IncomingMessage, ServerResponse> {
  constructor(@Inject(METRICS) private readonly metrics: HttpMetrics) {}

  use(req: IncomingMessage, res: ServerResponse, next: () => void) {
    res.setHeader("x-request-id", requestIdFrom(req.headers["x-request-id"]));
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabelOf(req) ?? ((req as Partial<Request>).route?.path as string | undefined);
      this.metrics.observe(req.method ?? "GET", route ?? UNMATCHED_ROUTE, res.statusCode, seconds);
    });
    next();
  }
}
