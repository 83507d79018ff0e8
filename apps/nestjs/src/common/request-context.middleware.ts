import type { IncomingMessage, ServerResponse } from "node:http";
import { type HttpMetrics, requestIdFrom, UNMATCHED_ROUTE } from "@api-ref/server";
import { Inject, Injectable, type NestMiddleware } from "@nestjs/common";
import { METRICS } from "../metrics.ts";
import { routeLabelOf } from "./http.ts";

/**
 * Runs first for every request, matched or not, on both platforms (Nest hands middleware Node's own request
 * and response there): sets `x-request-id` on the response, errors included, and records the request's
 * metrics once the response has been sent, labelled with the route template that served it.
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware<IncomingMessage, ServerResponse> {
  constructor(@Inject(METRICS) private readonly metrics: HttpMetrics) {}

  use(req: IncomingMessage, res: ServerResponse, next: () => void) {
    res.setHeader("x-request-id", requestIdFrom(req.headers["x-request-id"]));
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.metrics.observe(req.method ?? "GET", this.routeOf(req) ?? UNMATCHED_ROUTE, res.statusCode, seconds);
    });
    next();
  }

  /** The route template that served the request (recorded by the route-label interceptor and the filter). */
  protected routeOf(req: IncomingMessage): string | undefined {
    return routeLabelOf(req);
  }
}
