// Prometheus metrics (the shared prom-client registry of @api-ref/core), labelled with the route template
// Fastify matched (`request.routeOptions.url`), never the raw path; `unmatched` for a 404.
import { createHttpMetrics, type HttpMetrics, UNMATCHED_ROUTE } from "@api-ref/core";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    metrics: HttpMetrics;
  }
}

export default fp(
  async (fastify) => {
    const metrics = createHttpMetrics("fastify");
    fastify.decorate("metrics", metrics);
    fastify.addHook("onResponse", (request, reply, done) => {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  },
  { name: "metrics" },
);
