// What every no-framework baseline shares, whatever serves it: the route table (a template per route, a handler per
// method), the contract's problem+json errors, the checks on a JSON body, and the replies a handler returns. Nothing
// here touches a server: common.ts serves a route table with node:http, fetch-common.ts with Bun.serve or
// Deno.serve, so that node-http, bun-http and deno-http (and their database siblings) answer from the very same
// handlers. The problem catalogue is the contract's own (`@api-ref/contract/problem-kinds`, no imports).
import { PROBLEMS, type ProblemKind } from "@api-ref/contract/problem-kinds";
import type { HttpMetrics } from "@api-ref/server/metrics";

export type { HttpMetrics, ProblemKind };

type Row = Record<string, unknown>;

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
/** An incoming x-request-id that is echoed; any other is replaced by a new UUID. */
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
export const BODY_LIMIT = 1024 * 1024;

export const invalid = (path: string, message: string) =>
  new Problem("validation", "The request is not valid.", [{ path, message }]);

/** What a handler answers: a status, a body already serialised (or none) and its headers. */
export interface Reply {
  status: number;
  body?: string;
  headers: Record<string, string>;
}

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  body: JSON.stringify(value),
  headers: { ...headers, "content-type": "application/json; charset=utf-8" },
});

export const text = (status: number, body: string, contentType: string): Reply => ({
  status,
  body,
  headers: { "content-type": contentType },
});

export const empty = (status: number): Reply => ({ status, headers: {} });

/** A problem as the contract renders it. */
export function problemReply(problem: Problem): Reply {
  const { status, type, title } = PROBLEMS[problem.kind];
  const body = problem.errors
    ? { type, title, status, detail: problem.message, errors: problem.errors }
    : { type, title, status, detail: problem.message };
  return {
    status,
    body: JSON.stringify(body),
    headers: { ...problem.headers, "content-type": "application/problem+json" },
  };
}

/** The media type of a content-type header, lower-cased, without parameters. */
export const mediaType = (header: string | null | undefined) => (header ?? "").split(";")[0]?.trim().toLowerCase();

export const unsupportedMediaType = () => new Problem("unsupportedMediaType", "Send the body as application/json.");
export const payloadTooLarge = () => new Problem("payloadTooLarge", "The body is larger than 1 MiB.");

/** A JSON body's text as the contract accepts it: an object, no prototype-poisoning keys; 400 otherwise. */
export function parseObject(text: string): Row {
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
  return body as Row;
}

/** What a handler gets of its request, whichever server read it. */
export interface Incoming {
  /** The `authorization` header, as sent. */
  authorization: string | undefined;
  /** The body as a JSON object: 415 for another media type, 413 past 1 MiB, 400 for anything but an object. */
  json(): Promise<Row>;
}

export type Handler = (req: Incoming, url: URL, params: string[]) => Reply | Promise<Reply>;

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

/**
 * The route a request goes to: its template (the metrics label; "unmatched" when none) and what answers it — the
 * handler with its path parameters, or the problem (404, or 405 with the methods allowed).
 */
export function dispatch(
  table: readonly Route[],
  method: string,
  pathname: string,
): { template: string; handler: Handler; params: string[] } | { template: string; problem: Problem } {
  for (const r of table) {
    const match = r.pattern.exec(pathname);
    if (!match) continue;
    const handler = r.methods[method] ?? (method === "HEAD" ? r.methods.GET : undefined);
    if (handler) return { template: r.template, handler, params: match.slice(1) };
    const allow = Object.keys(r.methods).flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m]));
    return {
      template: r.template,
      problem: new Problem("methodNotAllowed", `${method} is not supported here.`, undefined, {
        allow: allow.join(", "),
      }),
    };
  }
  return { template: "unmatched", problem: new Problem("notFound", `Nothing lives at ${pathname}.`) };
}

/** GET /health (the process answers) and, given `ping`, GET /ready (its database answers too). */
export function probeRoutes(framework: string, ping?: () => Promise<unknown>): Route[] {
  const health = route("/health", {
    GET: () => json(200, { status: "ok", timestamp: Date.now(), framework }),
  });
  if (!ping) return [health];
  const ready = route("/ready", {
    GET: async () => {
      await ping();
      return json(200, { status: "ok" });
    },
  });
  return [health, ready];
}

/** A baseline: its route table (given the metrics, for /metrics), and how an unexpected error becomes a problem. */
export interface Baseline {
  framework: string;
  routes: (metrics: HttpMetrics) => Route[];
  onError: (error: unknown) => Problem;
}
