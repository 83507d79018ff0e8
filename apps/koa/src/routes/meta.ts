import { randomUUID } from "node:crypto";
import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import type { HttpMetrics } from "@api-ref/server";
import Router from "@koa/router";
import { jsonBody } from "../edges/json-body.ts";
import { validate } from "../middleware/validate.ts";

export function metaRoutes(dataAccess: DataAccess, metrics: HttpMetrics) {
  const router = new Router({ sensitive: true });

  router.get("/", (ctx) => {
    ctx.body = "Hello World!";
  });

  router.get("/health", (ctx) => {
    ctx.body = { status: "ok", timestamp: Date.now(), framework: metrics.framework };
  });

  router.get("/ready", async (ctx) => {
    await dataAccess.ping();
    ctx.body = { status: "ok" };
  });

  router.post("/echo", jsonBody, validate({ body: contract.EchoBody }), (ctx) => {
    ctx.body = { ...ctx.state.body, txnId: randomUUID() };
  });

  router.get("/metrics", async (ctx) => {
    ctx.type = metrics.contentType;
    ctx.body = await metrics.render();
  });

  router.get("/openapi.json", (ctx) => {
    ctx.body = contract.openApiDocument;
  });

  router.get("/docs", (ctx) => {
    // The one HTML page: its own policy (its inline scripts by hash) replaces the API's, set by securityHeaders.
    ctx.set("content-security-policy", contract.docsContentSecurityPolicy());
    ctx.type = "html";
    ctx.body = contract.docsHtml();
  });

  return router;
}
