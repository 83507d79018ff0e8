// One HTTP exchange, recorded rather than thrown: what was sent, when, and what came back (a response, or the
// network error and whether any of the response had arrived). The fault tests judge these records afterwards.
import http from "node:http";

export interface Exchange {
  method: string;
  /** Path and query as sent. */
  path: string;
  headers?: Record<string, string>;
  /** Body bytes as sent (a string is sent as UTF-8). */
  body?: string | Buffer;
}

export interface Outcome {
  /** performance.now() just before the request was written, and when the exchange ended either way. */
  sentAt: number;
  endedAt: number;
  /** The HTTP status, when a complete response arrived. */
  status?: number;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  text: string;
  /** The network error (`ECONNREFUSED`, `ECONNRESET`, `TIMEOUT`, …), when no complete response arrived. */
  error?: string;
  /** True when the status line had arrived before the error (a response cut short, not a refused request). */
  responseStarted: boolean;
}

export const durationMs = (o: Outcome) => o.endedAt - o.sentAt;

export interface SendOptions {
  /** A keep-alive agent to reuse connections, or false for a fresh connection closed after the response. */
  agent?: http.Agent | false;
  timeoutMs?: number;
}

/** Sends one request to `baseUrl`; resolves with its outcome, never rejects. */
export function send(baseUrl: string, exchange: Exchange, options: SendOptions = {}): Promise<Outcome> {
  const url = new URL(baseUrl);
  const body =
    exchange.body === undefined
      ? undefined
      : typeof exchange.body === "string"
        ? Buffer.from(exchange.body, "utf8")
        : exchange.body;
  const headers: Record<string, string> = { ...exchange.headers };
  if (body !== undefined) headers["content-length"] = String(body.length);
  if (options.agent === false) headers.connection = "close";
  return new Promise((resolve) => {
    const outcome: Outcome = { sentAt: performance.now(), endedAt: 0, headers: {}, text: "", responseStarted: false };
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      outcome.endedAt = performance.now();
      if (error !== undefined) {
        outcome.error = error;
        outcome.status = undefined;
      }
      resolve(outcome);
    };
    let req: http.ClientRequest;
    try {
      req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: exchange.method,
          path: exchange.path,
          headers,
          agent: options.agent ?? false,
        },
        (res) => {
          outcome.responseStarted = true;
          outcome.status = res.statusCode;
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) outcome.headers[name] = Array.isArray(value) ? value.join(", ") : value;
          }
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
          res.on("aborted", () => finish("ABORTED"));
          res.on("end", () => {
            outcome.text = Buffer.concat(chunks).toString("utf8");
            finish();
          });
        },
      );
    } catch (error) {
      // Node refuses to send some requests at all (invalid header characters, say): no exchange took place.
      finish(`CLIENT_REFUSED: ${(error as Error).message}`);
      return;
    }
    const timer = setTimeout(() => {
      finish("TIMEOUT");
      req.destroy();
    }, options.timeoutMs ?? 30_000);
    req.on("close", () => clearTimeout(timer));
    req.on("error", (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    req.end(body);
  });
}

/** The body as JSON, or undefined when it is not JSON. */
export function jsonOf(outcome: Outcome): unknown {
  try {
    return JSON.parse(outcome.text);
  } catch {
    return undefined;
  }
}

/** `POST /orders → 503 {...}` or `GET /users → ECONNRESET`: one line for a report. */
export function describeOutcome(exchange: Exchange, outcome: Outcome): string {
  const answer =
    outcome.error !== undefined
      ? `${outcome.error}${outcome.responseStarted ? " (after the response began)" : ""}`
      : `${outcome.status} ${outcome.headers["content-type"] ?? ""} ${outcome.text.slice(0, 300)}`;
  return `${exchange.method} ${exchange.path} → ${answer} in ${Math.round(durationMs(outcome))} ms`;
}

/** A keep-alive agent for `connections` concurrent clients. */
export const keepAliveAgent = (connections: number) =>
  new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });

/** A curl command that repeats an exchange (for reproductions in reports). */
export function curlOf(baseUrl: string, exchange: Exchange): string {
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const parts = ["curl", "-si", "-X", exchange.method];
  for (const [name, value] of Object.entries(exchange.headers ?? {})) parts.push("-H", quote(`${name}: ${value}`));
  if (exchange.body !== undefined) {
    const text = typeof exchange.body === "string" ? exchange.body : exchange.body.toString("utf8");
    if (text.length > 2000) parts.push("--data-binary", quote(`<${text.length} bytes: ${text.slice(0, 200)}…>`));
    else parts.push("--data-binary", quote(text));
  }
  parts.push(quote(`${baseUrl}${exchange.path}`));
  return parts.join(" ");
}
