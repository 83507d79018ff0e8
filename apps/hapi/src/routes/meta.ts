import { randomUUID } from "node:crypto";
import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import type { HttpMetrics } from "@api-ref/server";
import type { Plugin } from "@hapi/hapi";
import { jsonBody } from "../edges/json-body.ts";

export const metaRoutes: Plugin<{ dataAccess: DataAccess; metrics: HttpMetrics }> = {
  name: "meta-routes",
  register(server, { dataAccess, metrics }) {
    // Every route here is public.
    const options = { auth: false } as const;
    server.route([
      { method: "GET", path: "/", options, handler: (_request, h) => h.response("Hello World!").type("text/plain") },
      {
        method: "GET",
        path: "/health",
        options,
        handler: () => ({ status: "ok", timestamp: Date.now(), framework: metrics.framework }),
      },
      {
        method: "GET",
        path: "/ready",
        options,
        async handler() {
          await dataAccess.ping();
          return { status: "ok" };
        },
      },
      {
        method: "GET",
        path: "/metrics",
        options,
        handler: async (_request, h) => h.response(await metrics.render()).type(metrics.contentType),
      },
      { method: "GET", path: "/openapi.json", options, handler: () => contract.openApiDocument },
      {
        method: "GET",
        path: "/docs",
        // The page's own policy, which allows its two inline scripts by hash (`edges/security-headers.ts`).
        options: { ...options, plugins: { "content-security-policy": contract.docsContentSecurityPolicy() } },
        handler: (_request, h) => h.response(contract.docsHtml()).type("text/html"),
      },
    ]);
    server.route<{ Payload: contract.EchoBody }>({
      method: "POST",
      path: "/echo",
      options: {
        ...options,
        ...jsonBody(contract.EchoBody),
        handler: (request) => ({ ...request.payload, txnId: randomUUID() }),
      },
    });
  },
};
