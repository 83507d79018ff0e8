import { randomUUID } from "node:crypto";
import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import type { HttpMetrics } from "@api-ref/server";
import { Elysia } from "elysia";
import { jsonBody } from "../edges/json-body.ts";

/** The operational routes: hello, health, readiness, echo, metrics, the OpenAPI document and its page. */
export const metaRoutes = (dataAccess: DataAccess, metrics: HttpMetrics) =>
  new Elysia()
    .use(jsonBody)
    .get("/", ({ set }) => {
      set.headers["content-type"] = "text/plain; charset=utf-8";
      return "Hello World!";
    })
    .get("/health", () => ({ status: "ok" as const, timestamp: Date.now(), framework: metrics.framework }))
    .get("/ready", async () => {
      await dataAccess.ping();
      return { status: "ok" as const };
    })
    .post("/echo", ({ body }) => ({ ...body, txnId: randomUUID() }), { json: true, body: contract.EchoBody })
    .get("/metrics", async ({ set }) => {
      set.headers["content-type"] = metrics.contentType;
      return await metrics.render();
    })
    .get("/openapi.json", () => contract.openApiDocument)
    .get("/docs", ({ set }) => {
      set.headers["content-type"] = "text/html; charset=utf-8";
      // The page's own policy, which allows its two inline scripts by hash, in the place of the API's.
      set.headers["content-security-policy"] = contract.docsContentSecurityPolicy();
      return contract.docsHtml();
    });
