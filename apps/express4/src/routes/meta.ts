import { randomUUID } from "node:crypto";
import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { validate } from "@api-ref/express/middleware/validate";
import type { HttpMetrics } from "@api-ref/server";
import { Router } from "express4";
import { jsonBody } from "../edges/json-body.ts";
import { asyncHandler } from "../middleware/async-handler.ts";

export function metaRoutes(dataAccess: DataAccess, metrics: HttpMetrics) {
  const router = Router({ caseSensitive: true, strict: true });

  router.route("/").get((_req, res) => {
    res.type("text/plain").send("Hello World!");
  });

  router.route("/health").get((_req, res) => {
    res.json({ status: "ok", timestamp: Date.now(), framework: metrics.framework });
  });

  router.route("/ready").get(
    asyncHandler(async (_req, res) => {
      await dataAccess.ping();
      res.json({ status: "ok" });
    }),
  );

  router.route("/echo").post(jsonBody, validate({ body: contract.EchoBody }), (req, res) => {
    res.json({ ...req.body, txnId: randomUUID() });
  });

  router.route("/metrics").get(
    asyncHandler(async (_req, res) => {
      res.type(metrics.contentType).send(await metrics.render());
    }),
  );

  router.route("/openapi.json").get((_req, res) => {
    res.json(contract.openApiDocument);
  });

  router.route("/docs").get((_req, res) => {
    // The one HTML page: its own policy (its inline scripts by hash) replaces the API's, set by securityHeaders.
    res.set("content-security-policy", contract.docsContentSecurityPolicy()).type("html").send(contract.docsHtml());
  });

  return router;
}
