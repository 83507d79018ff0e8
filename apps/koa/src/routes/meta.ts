import { randomUUID } from "node:crypto";
import * as contract from "@api-ref/contract";
import type { DataAccess, HttpMetrics } from "@api-ref/core";
import { methodNotAllowed } from "../middleware/errors.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { validate } from "../middleware/validate.ts";
import { strictRouter } from "./router.ts";

export function metaRoutes(dataAccess: DataAccess, metrics: HttpMetrics) {
  const router = strictRouter();

  router
    .get("/", (ctx) => {
      ctx.body = "Hello World!";
    })
    .all("/", methodNotAllowed("/"));

  router
    .get("/health", (ctx) => {
      ctx.body = { status: "ok", timestamp: Date.now(), framework: metrics.framework };
    })
    .all("/health", methodNotAllowed("/health"));

  router
    .get("/ready", async (ctx) => {
      await dataAccess.ping();
      ctx.body = { status: "ok" };
    })
    .all("/ready", methodNotAllowed("/ready"));

  router
    .post("/echo", jsonBody, validate({ body: contract.EchoBody }), (ctx) => {
      ctx.body = { ...ctx.state.body, txnId: randomUUID() };
    })
    .all("/echo", methodNotAllowed("/echo"));

  router
    .get("/metrics", async (ctx) => {
      ctx.type = metrics.contentType;
      ctx.body = await metrics.render();
    })
    .all("/metrics", methodNotAllowed("/metrics"));

  router
    .get("/openapi.json", (ctx) => {
      ctx.body = contract.openApiDocument;
    })
    .all("/openapi.json", methodNotAllowed("/openapi.json"));

  router
    .get("/docs", (ctx) => {
      // The one HTML page: its own policy (its inline scripts by hash) replaces the API's, set by securityHeaders.
      ctx.set("content-security-policy", contract.docsContentSecurityPolicy());
      ctx.type = "html";
      ctx.body = contract.docsHtml();
    })
    .all("/docs", methodNotAllowed("/docs"));

  return router;
}
