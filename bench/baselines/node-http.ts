// Baseline for the framework-only scenarios: raw node:http serving /, /health, /echo and /metrics as the
// contract says, with the per-request duties every app has (x-request-id, metrics). Started like an app.
import { randomUUID } from "node:crypto";
import { createServer, listen, Problem, probeRoutes, readJson, route, sendJson, sendText } from "./common.ts";

const server = createServer(
  "node-http",
  (metrics) => [
    route("/", { GET: (_req, res) => sendText(res, 200, "Hello World!", "text/plain; charset=utf-8") }),
    ...probeRoutes("node-http"),
    route("/echo", {
      POST: async (req, res) => sendJson(res, 200, { ...(await readJson(req)), txnId: randomUUID() }),
    }),
    route("/metrics", {
      GET: async (_req, res) => sendText(res, 200, await metrics.render(), metrics.contentType),
    }),
  ],
  () => new Problem("internal", "An unexpected error occurred."),
);
listen(server);
