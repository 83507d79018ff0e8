import { randomUUID } from "node:crypto";
import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import type { HttpMetrics } from "@api-ref/server";
import { Hono } from "hono";
import { jsonBody } from "../edges/json-body.ts";
import type { AppEnv } from "../env.ts";
import { body } from "../middleware/validate.ts";

/** The operational routes: hello, health, readiness, echo, metrics, the OpenAPI document and its page. */
export const metaRoutes = (dataAccess: DataAccess, metrics: HttpMetrics) =>
  new Hono<AppEnv>()
    .get("/", (c) => c.text("Hello World!"))
    .get("/health", (c) => c.json({ status: "ok" as const, timestamp: Date.now(), framework: metrics.framework }))
    .get("/ready", async (c) => {
      await dataAccess.ping();
      return c.json({ status: "ok" as const });
    })
    .post("/echo", jsonBody, body(contract.EchoBody), (c) => c.json({ ...c.req.valid("json"), txnId: randomUUID() }))
    .get("/metrics", async (c) => c.body(await metrics.render(), 200, { "content-type": metrics.contentType }))
    .get("/openapi.json", (c) => c.json(contract.openApiDocument))
    // The one HTML page: its own policy (its inline scripts by hash), which securityHeaders keeps.
    .get("/docs", (c) =>
      c.html(contract.docsHtml(), 200, { "content-security-policy": contract.docsContentSecurityPolicy() }),
    );
