import { randomUUID } from "node:crypto";
import * as contract from "@api-ref/contract";
import type { FastifyPluginAsyncZod } from "@fastify/type-provider-zod";

/** The operational routes; /health gives the name the metrics were created with (the metrics plugin's `framework`). */
export const metaRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { dataAccess, metrics } = fastify;

  fastify.get("/", async (_request, reply) => reply.type("text/plain; charset=utf-8").send("Hello World!"));

  fastify.get("/health", { schema: { response: { 200: contract.Health } } }, async () => ({
    status: "ok" as const,
    timestamp: Date.now(),
    framework: metrics.framework,
  }));

  fastify.get("/ready", { schema: { response: { 200: contract.Ready } } }, async () => {
    await dataAccess.ping();
    return { status: "ok" as const };
  });

  fastify.post(
    "/echo",
    { schema: { body: contract.EchoBody, response: { 200: contract.EchoResponse } } },
    async (request) => ({
      ...request.body,
      txnId: randomUUID(),
    }),
  );

  fastify.get("/metrics", async (_request, reply) => reply.type(metrics.contentType).send(await metrics.render()));

  // The contract's own document: both modes serve the same one, whatever their schemas compile to.
  fastify.get("/openapi.json", async () => contract.openApiDocument);

  // The one HTML page: its own policy (its inline scripts by hash) replaces the API's, set by edges/security-headers.ts.
  fastify.get("/docs", async (_request, reply) =>
    reply
      .header("content-security-policy", contract.docsContentSecurityPolicy())
      .type("text/html; charset=utf-8")
      .send(contract.docsHtml()),
  );
};
