// Prometheus metrics: one registry (@api-ref/core's prom-client registry) for both worlds, recorded by one
// `onResponse` hook. Fastify runs it for every request, those an Express router answered included: to Fastify
// those are requests on its not-found route, finished when Express ends the raw response. The `route` label is
// the template, never the raw path: Fastify's (`request.routeOptions.url`) for a native route, else Express's
// (`req.route.path`, which Express's router sets on the raw request it matched), else `unmatched`.
import { createHttpMetrics, type HttpMetrics, UNMATCHED_ROUTE } from "@api-ref/core";
import type { Request as ExpressRequest } from "express";
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    metrics: HttpMetrics;
  }
}

/** The template of the Express route that answered, if one did (the line to delete with @fastify/express). */
const expressRoute = (request: FastifyRequest) =>
  (request.raw as Partial<ExpressRequest>).route?.path as string | undefined;

export default fp<{ framework: string }>(
  async (fastify, { framework }) => {
    const metrics = createHttpMetrics(framework);
    fastify.decorate("metrics", metrics);
    fastify.addHook("onResponse", (request, reply, done) => {
      const route = request.routeOptions.url ?? expressRoute(request) ?? UNMATCHED_ROUTE;
      metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  },
  { name: "metrics" },
);
