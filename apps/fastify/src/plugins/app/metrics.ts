// Prometheus metrics (the shared prom-client registry of @api-ref/server), labelled with the route template
// Fastify matched (`request.routeOptions.url`), never the raw path. Requests no route took are `unmatched`, except a
// 405 from the not-found handler (a method Fastify does not route, on a known path): its path's template.
import { unmatched } from "@api-ref/contract";
import { createHttpMetrics, type HttpMetrics, UNMATCHED_ROUTE } from "@api-ref/server";
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    metrics: HttpMetrics;
  }
}

export interface MetricsOptions {
  /** The `framework` label (default `fastify`). */
  framework?: string;
  /** The template of a request no Fastify route took, if something else served it (express-to-fastify's routers). */
  routeOf?: (request: FastifyRequest) => string | undefined;
}

export default fp<MetricsOptions>(
  async (fastify, { framework = "fastify", routeOf = () => undefined }) => {
    const metrics = createHttpMetrics(framework);
    fastify.decorate("metrics", metrics);
    fastify.addHook("onResponse", (request, reply, done) => {
      const route =
        request.routeOptions.url ??
        routeOf(request) ??
        (reply.statusCode === 405 ? unmatched(request.method, request.url).template : undefined) ??
        UNMATCHED_ROUTE;
      metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  },
  { name: "metrics" },
);
