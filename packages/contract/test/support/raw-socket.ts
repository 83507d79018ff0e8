// HTTP/1.x over a bare TCP socket: the exact bytes a test writes go out (no header added, no framing chosen by a
// client library), and what comes back is parsed just enough to compare answers: each final response's status,
// headers and body, interim 1xx responses, and whether the server closed the connection. Needed for requests no
// client library sends: conflicting content-length / transfer-encoding, no Host, HTTP/1.0, pipelining,
// absolute-form targets, bytes that are not UTF-8, header blocks larger than a client allows.
import net from "node:net";

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
  /** Write the request in these pieces, `pauseMs` apart (default one write). */
  pieces?: Array<string | Buffer>;
  pauseMs?: number;
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
        if (i > 0 && options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
        if (finished || socket.destroyed) return;
        socket.write(piece);
      }
    });
  });
}
