import type { HttpMetrics } from "@api-ref/server";
import type { Plugin, ResponseObject } from "@hapi/hapi";
import { routeTemplate } from "../route-template.ts";

declare module "@hapi/hapi" {
  interface RequestApplicationState {
    startedAt: bigint;
  }
}

/** Counts and times every request by method, route template (`request.route.path`) and status, on Hapi's `response` event. */
export const metricsPlugin: Plugin<{ metrics: HttpMetrics }> = {
  name: "metrics",
  register(server, { metrics }) {
    server.ext("onRequest", (request, h) => {
      request.app.startedAt = process.hrtime.bigint();
      return h.continue;
    });
    server.events.on("response", (request) => {
      const response = request.response;
      const status =
        "isBoom" in response && response.isBoom ? response.output.statusCode : (response as ResponseObject).statusCode;
      const seconds = Number(process.hrtime.bigint() - request.app.startedAt) / 1e9;
      metrics.observe(request.method.toUpperCase(), routeTemplate(request.route.path), status, seconds);
    });
  },
};
