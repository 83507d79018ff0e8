// The node:http side of the no-framework baselines: a node:http server over a route table (http.ts), with the
// contract's per-request duties that every implementation also pays for (an x-request-id on every response,
// http_requests_total and the duration histogram for /metrics), problem+json errors, reading a JSON body, and
// start-up and shutdown from the environment like every app. Nothing here is a framework: plain node:http, written
// the way one would by hand. The metrics are the apps' own (`@api-ref/server/metrics` loads prom-client only): the raw
// baselines load neither Zod nor Prisma. fetch-common.ts is the same for Bun.serve and Deno.serve.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { createHttpMetrics } from "@api-ref/server/metrics";
import {
  type Baseline,
  BODY_LIMIT,
  dispatch,
  type Incoming,
  mediaType,
  Problem,
  parseObject,
  payloadTooLarge,
  problemReply,
  REQUEST_ID,
  type Reply,
  unsupportedMediaType,
} from "./http.ts";

export * from "./http.ts";

/** Reads a JSON object body: 415 for another media type, 413 past 1 MiB, 400 for anything but an object. */
async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  if (mediaType(req.headers["content-type"]) !== "application/json") throw unsupportedMediaType();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw payloadTooLarge();
    chunks.push(chunk);
  }
  return parseObject(Buffer.concat(chunks).toString("utf8"));
}

function send(res: http.ServerResponse, reply: Reply) {
  if (reply.body === undefined) {
    res.writeHead(reply.status, reply.headers).end();
    return;
  }
  res.writeHead(reply.status, { ...reply.headers, "content-length": Buffer.byteLength(reply.body) });
  res.end(reply.body);
}

/** A node:http server over a baseline's route table, with request ids, metrics and problem+json errors. */
export function createServer({ framework, routes, onError }: Baseline) {
  const metrics = createHttpMetrics(framework);
  const table = routes(metrics);
  return http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    const incoming = req.headers["x-request-id"];
    res.setHeader("x-request-id", typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID());
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = req.method ?? "GET";
    const found = dispatch(table, method, url.pathname);
    res.once("finish", () => {
      metrics.observe(method, found.template, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    const fail = (error: unknown) => {
      if (res.headersSent) return res.destroy();
      send(res, problemReply(error instanceof Problem ? error : onError(error)));
    };
    if ("problem" in found) return fail(found.problem);
    const request: Incoming = { authorization: req.headers.authorization, json: () => readJson(req) };
    try {
      const result = found.handler(request, url, found.params);
      if (result instanceof Promise) result.then((reply) => send(res, reply), fail);
      else send(res, result);
    } catch (error) {
      fail(error);
    }
  });
}

/** Serves a baseline on PORT/HOST like every app, and closes gracefully on SIGTERM/SIGINT. */
export function serve(baseline: Baseline, close: () => Promise<void> = async () => {}) {
  const server = createServer(baseline);
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST || "0.0.0.0";
  server.listen(port, host);
  const shutdown = () => {
    server.close(() => {
      void close().then(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 5000).unref();
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}
