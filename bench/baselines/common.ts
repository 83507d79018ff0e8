// What both no-framework baselines share: the contract's per-request duties that every implementation also
// pays for (an x-request-id on every response, http_requests_total and the duration histogram for /metrics),
// problem+json errors, reading a JSON body, and start-up and shutdown from the environment like every app.
// Nothing here is a framework: plain node:http handlers, written the way one would by hand. The metrics are core's
// own (`@api-ref/core/metrics` loads prom-client only), and so is the problem catalogue
// (`@api-ref/contract/problem-kinds`, no imports): the raw baselines load neither Zod nor Prisma.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { PROBLEMS, type ProblemKind } from "@api-ref/contract/problem-kinds";
import { createHttpMetrics, type HttpMetrics } from "@api-ref/core/metrics";

export type { ProblemKind };

/** Thrown by a handler for a client error; the dispatcher renders it as problem+json. */
export class Problem extends Error {
  readonly kind: ProblemKind;
  readonly errors: Array<{ path: string; message: string }> | undefined;
  readonly headers: Record<string, string>;

  constructor(
    kind: ProblemKind,
    detail: string,
    errors?: Array<{ path: string; message: string }>,
    headers: Record<string, string> = {},
  ) {
    super(detail);
    this.kind = kind;
    this.errors = errors;
    this.headers = headers;
  }
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const BODY_LIMIT = 1024 * 1024;

export const invalid = (path: string, message: string) =>
  new Problem("validation", "The request is not valid.", [{ path, message }]);

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendText(res: http.ServerResponse, status: number, text: string, contentType: string) {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function sendProblem(res: http.ServerResponse, problem: Problem) {
  const { status, type, title } = PROBLEMS[problem.kind];
  const body = problem.errors
    ? { type, title, status, detail: problem.message, errors: problem.errors }
    : { type, title, status, detail: problem.message };
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...problem.headers,
    "content-type": "application/problem+json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** Reads a JSON object body: 415 for another media type, 413 past 1 MiB, 400 for anything but an object. */
export async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") throw new Problem("unsupportedMediaType", "Send the body as application/json.");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new Problem("payloadTooLarge", "The body is larger than 1 MiB.");
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Problem("malformedJson", "The body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalid("body", "must be an object");
  // The contract refuses prototype-poisoning keys anywhere in a body.
  if (text.includes('"__proto__"') || (text.includes('"constructor"') && text.includes('"prototype"'))) {
    throw invalid("body", "must not contain __proto__ or constructor.prototype keys");
  }
  return body as Record<string, unknown>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL, params: string[]) => unknown;

export interface Route {
  /** The route template, as the metrics label (`/users/:id`). */
  template: string;
  pattern: RegExp;
  methods: Partial<Record<string, Handler>>;
}

/** `/users/:id` → a route whose `:id` segment is captured. */
export function route(template: string, methods: Route["methods"]): Route {
  const pattern = new RegExp(`^${template.replace(/:[a-z]+/g, "([^/]+)")}$`);
  return { template, pattern, methods };
}

/** A node:http server over a route table, with request ids, metrics and problem+json errors. */
/** GET /health (the process answers) and, given `ping`, GET /ready (its database answers too). */
export function probeRoutes(framework: string, ping?: () => Promise<unknown>): Route[] {
  const health = route("/health", {
    GET: (_req, res) => sendJson(res, 200, { status: "ok", timestamp: Date.now(), framework }),
  });
  if (!ping) return [health];
  const ready = route("/ready", {
    GET: async (_req, res) => {
      await ping();
      sendJson(res, 200, { status: "ok" });
    },
  });
  return [health, ready];
}

export function createServer(
  framework: string,
  routes: (metrics: HttpMetrics) => Route[],
  onError: (error: unknown) => Problem,
) {
  const metrics = createHttpMetrics(framework);
  const table = routes(metrics);
  return http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    const incoming = req.headers["x-request-id"];
    res.setHeader("x-request-id", typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID());
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = req.method ?? "GET";
    let template = "unmatched";
    res.once("finish", () => {
      metrics.observe(method, template, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    const fail = (error: unknown) => {
      if (res.headersSent) return res.destroy();
      sendProblem(res, error instanceof Problem ? error : onError(error));
    };
    for (const r of table) {
      const match = r.pattern.exec(url.pathname);
      if (!match) continue;
      template = r.template;
      const handler = r.methods[method] ?? (method === "HEAD" ? r.methods.GET : undefined);
      if (!handler) {
        const allow = Object.keys(r.methods).flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m]));
        return fail(
          new Problem("methodNotAllowed", `${method} is not supported here.`, undefined, { allow: allow.join(", ") }),
        );
      }
      try {
        const result = handler(req, res, url, match.slice(1)) as Promise<unknown> | undefined;
        if (result && typeof result.then === "function") result.then(undefined, fail);
      } catch (error) {
        fail(error);
      }
      return;
    }
    fail(new Problem("notFound", `Nothing lives at ${url.pathname}.`));
  });
}

/** Listens on PORT/HOST like every app, and closes gracefully on SIGTERM/SIGINT. */
export function listen(server: http.Server, close: () => Promise<void> = async () => {}) {
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
