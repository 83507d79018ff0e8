// The raw HTTP client of the contract suite, the bench and the fault suite, nothing added or parsed behind the
// caller's back. Two ways to send:
// - `send`: one request through node:http, recorded rather than thrown: what was sent, when, and what came back
//   (a response, or the network error and whether any of the response had arrived).
// - `exchange`: HTTP/1.x over a bare TCP socket: the exact bytes a caller writes go out (no header added, no
//   framing chosen by a client library), and what comes back is parsed just enough to compare answers: each final
//   response's status, headers and body, interim 1xx responses, and whether the server closed the connection.
//   Needed for requests no client library sends: conflicting content-length / transfer-encoding, no Host,
//   HTTP/1.0, pipelining, absolute-form targets, bytes that are not UTF-8, header blocks larger than a client
//   allows, a POST with no body at all.
import { channel } from "node:diagnostics_channel";
import http from "node:http";
import net from "node:net";

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

// ---- bytes over a socket ---------------------------------------------------------------------------------------

export interface SocketResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface SocketExchange {
  /** Final responses, in order. */
  responses: SocketResponse[];
  /** Statuses of interim (1xx) responses. */
  interim: number[];
  /** The server closed (or reset) the connection before the exchange ended. */
  closed: boolean;
  /** Bytes received that did not parse as a response (a server that answered with garbage). */
  garbage: string | null;
}

export interface ExchangeOptions {
  /** Stop once this many final responses have arrived (default 1). */
  responses?: number;
  /** Methods of the requests, in order, for the responses to HEAD, which have no body (default all GET). */
  methods?: string[];
  /** Give up after this long (the exchange then reports what it has; default 10 s). */
  timeoutMs?: number;
  /**
   * Write the request in these pieces (default one write), each after the last has been handed to the system and
   * `pauseMs` later: one pause between every two pieces, or a list of pauses, one per gap (missing ones are 0).
   * Pieces not yet written when the answer arrives are not written.
   */
  pieces?: Array<string | Buffer>;
  pauseMs?: number | number[];
}

const HEAD_END = Buffer.from("\r\n\r\n");

/** Parses as many complete responses as `data` holds; returns them and how many bytes they used. */
function parse(
  data: Buffer,
  methods: string[],
  done: number,
  ended: boolean,
): { finals: SocketResponse[]; interim: number[]; used: number; garbage: string | null } {
  const finals: SocketResponse[] = [];
  const interim: number[] = [];
  let at = 0;
  for (;;) {
    const headEnd = data.indexOf(HEAD_END, at);
    if (headEnd === -1) break;
    const lines = data.subarray(at, headEnd).toString("latin1").split("\r\n");
    const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "");
    if (!statusLine) return { finals, interim, used: at, garbage: data.subarray(at, at + 200).toString("latin1") };
    const status = Number(statusLine[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    let bodyStart = headEnd + 4;
    if (status >= 100 && status < 200) {
      interim.push(status);
      at = bodyStart;
      continue;
    }
    const method = methods[done + finals.length] ?? "GET";
    let body: Buffer;
    if (method === "HEAD" || status === 204 || status === 304) {
      body = Buffer.alloc(0);
    } else if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
      const chunks: Buffer[] = [];
      let complete = false;
      for (;;) {
        const lineEnd = data.indexOf("\r\n", bodyStart);
        if (lineEnd === -1) break;
        const size = Number.parseInt(data.subarray(bodyStart, lineEnd).toString("latin1"), 16);
        if (Number.isNaN(size)) return { finals, interim, used: at, garbage: "bad chunk size" };
        if (size === 0) {
          const trailerEnd = data.indexOf("\r\n\r\n", lineEnd);
          if (trailerEnd === -1) break;
          bodyStart = trailerEnd + 4;
          complete = true;
          break;
        }
        if (data.length < lineEnd + 2 + size + 2) break;
        chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        bodyStart = lineEnd + 2 + size + 2;
      }
      if (!complete) break;
      body = Buffer.concat(chunks);
    } else if (headers["content-length"] !== undefined) {
      const length = Number(headers["content-length"]);
      if (data.length < bodyStart + length) break;
      body = data.subarray(bodyStart, bodyStart + length);
      bodyStart += length;
    } else {
      // Delimited by the close of the connection.
      if (!ended) break;
      body = data.subarray(bodyStart);
      bodyStart = data.length;
    }
    finals.push({ status, headers, body: Buffer.from(body) });
    at = bodyStart;
  }
  return { finals, interim, used: at, garbage: null };
}

/** What `exchange` publishes on `exchangeChannel` when an exchange ends. */
export interface ExchangeRecord {
  baseUrl: string;
  /** Every byte written (all pieces). */
  request: Buffer;
  responses: SocketResponse[];
}
/**
 * Every socket exchange, published as it ends, for whoever listens (the contract suite counts the statuses its
 * requests got, whichever client sent them; node:http and fetch publish on their own channels).
 */
export const exchangeChannel = channel("api-ref:harness.exchange");

/** Connects to `baseUrl`'s host and port, writes `request`, and collects the answers. */
export function exchange(
  baseUrl: string,
  request: string | Buffer,
  options: ExchangeOptions = {},
): Promise<SocketExchange> {
  const url = new URL(baseUrl);
  const wanted = options.responses ?? 1;
  const methods = options.methods ?? [];
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    let buffer = Buffer.alloc(0);
    const responses: SocketResponse[] = [];
    const interim: number[] = [];
    let garbage: string | null = null;
    let finished = false;
    const finish = (closed: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (closed) consume(true);
      socket.destroy();
      if (exchangeChannel.hasSubscribers) {
        const pieces = (options.pieces ?? [request]).map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : p));
        exchangeChannel.publish({ baseUrl, request: Buffer.concat(pieces), responses } satisfies ExchangeRecord);
      }
      resolve({ responses, interim, closed, garbage });
    };
    const consume = (ended: boolean) => {
      const parsed = parse(buffer, methods, responses.length, ended);
      responses.push(...parsed.finals);
      interim.push(...parsed.interim);
      buffer = buffer.subarray(parsed.used);
      if (parsed.garbage) garbage = parsed.garbage;
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs ?? 10_000);
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      consume(false);
      if (responses.length >= wanted || garbage) finish(false);
    });
    socket.on("end", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    socket.on("connect", async () => {
      const pieces = options.pieces ?? [request];
      for (const [i, piece] of pieces.entries()) {
        if (finished || socket.destroyed) return;
        const pause = Array.isArray(options.pauseMs) ? (options.pauseMs[i - 1] ?? 0) : (options.pauseMs ?? 0);
        if (i > 0 && pause > 0) await new Promise((r) => setTimeout(r, pause));
        if (finished || socket.destroyed) return;
        await new Promise((written) => socket.write(piece, written));
      }
    });
  });
}
