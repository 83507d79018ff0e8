// The life of a server on Bun or Deno, for an app that is a web-standard `fetch(request)` (Hono): what serve.ts's
// `serveNodeApp` does for a node:http server, with the runtime-neutral parts written once here — the config from the
// environment (exit 2 with what is wrong), a pino logger, the data access and the metrics, and on SIGTERM/SIGINT a
// graceful stop (stop accepting, let in-flight requests finish, at most `SHUTDOWN_GRACE_MS`, close the data access,
// exit 0). How a runtime listens is a `FetchListen`: `listenWithBun` (Bun.serve) and `listenWithDeno` (Deno.serve)
// below, each with the contract's limits as far as that server has them (README "On Bun and Deno" in packages/server).
// Imported as `@api-ref/server/serve-fetch`.
import { METHODS } from "node:http";
import { createDataAccess } from "@api-ref/data-access";
import { pino } from "pino";
import { type AppConfig, loadConfigOrExit } from "./config.ts";
import { HTTP_LIMITS } from "./limits.ts";
import { createHttpMetrics } from "./metrics.ts";
import { type NodeAppDependencies, stopOnSignal } from "./serve.ts";

/**
 * A web-standard request handler (`app.fetch` of Hono). `connection` is what the runtime hands its handler beside
 * the request (Bun's server, Deno's serve info): how an app learns the client's address (Hono's getConnInfo).
 */
export type FetchHandler = (request: Request, connection?: object) => Response | Promise<Response>;

/** A server a runtime started around a `FetchHandler`. */
export interface FetchServer {
  /** Stops accepting connections; resolves once the requests in flight have been answered. */
  stop(): Promise<void>;
  /** Closes every connection at once (after the grace period). */
  closeAll(): void;
}

/** Starts the runtime's server on `config`'s host and port; `onListening` once it accepts connections. */
export type FetchListen = (
  handler: FetchHandler,
  config: Pick<AppConfig, "host" | "port">,
  onListening: () => void,
) => FetchServer;

/**
 * Reads the environment, builds the app's handler with `createFetch`, serves it with `listen` until SIGTERM/SIGINT.
 * `name` is the framework's, for the metrics' `framework` label and the "listening" line.
 */
export function serveFetchApp(
  name: string,
  createFetch: (dependencies: NodeAppDependencies, config: AppConfig) => FetchHandler,
  listen: FetchListen,
): void {
  const config = loadConfigOrExit();
  const logger = pino({ level: config.logLevel });
  const dataAccess = createDataAccess(config);
  const handler = createFetch({ dataAccess, metrics: createHttpMetrics(name), logger }, config);
  let server: FetchServer;
  try {
    server = listen(handler, config, () => logger.info(`${name} listening on http://${config.host}:${config.port}`));
  } catch (error) {
    logger.fatal({ err: error }, "could not listen");
    process.exit(1);
  }

  stopOnSignal({
    logger,
    dataAccess,
    graceMs: config.shutdownGraceMs,
    stop: () => server.stop(),
    forceClose: () => server.closeAll(),
  });
}

/**
 * The size of a request's head as sent — request line and header fields, each ended by CRLF — from what the runtime
 * parsed (a header sent as `name:value` counts one byte more than it was; no client of the contract sends that).
 */
export function headBytes(request: Request): number {
  const url = request.url;
  const authority = url.indexOf("/", url.indexOf("://") + 3);
  let bytes = `${request.method} ${authority === -1 ? "/" : url.slice(authority)} HTTP/1.1\r\n`.length;
  for (const [field, value] of request.headers) bytes += field.length + 2 + value.length + 2;
  return bytes;
}

/** An answer that Node's HTTP parser would give before any application code ran: no body, the connection closed. */
const refused = (status: number) => new Response(null, { status, headers: { connection: "close" } });

/** The contract's 431 past 16 KiB of head, as Node's `maxHeaderSize` answers it. */
export function withHeadLimit(handler: FetchHandler, limit = HTTP_LIMITS.maxHeaderBytes): FetchHandler {
  return (request, connection) => (headBytes(request) > limit ? refused(431) : handler(request, connection));
}

const KNOWN_METHODS = new Set(METHODS);

/**
 * What Node's server does before its app sees a request, for a server that leaves it to the app (README "Runtimes"
 * in packages/server): a method that is no registered token is a 400 (`FOO`, `get`); an `expect` other than
 * `100-continue` is a 417; a request whose head and body have not arrived within the request timeout is a 408.
 */
export function withNodeHttpRules(
  handler: FetchHandler,
  requestTimeoutMs: number = HTTP_LIMITS.requestTimeoutMs,
): FetchHandler {
  return (request, connection) => {
    if (!KNOWN_METHODS.has(request.method)) return refused(400);
    const expectation = request.headers.get("expect");
    if (expectation !== null && expectation.toLowerCase() !== "100-continue") return refused(417);
    if (request.body === null) return handler(request, connection);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<Response>((resolve) => {
      timer = setTimeout(() => resolve(refused(408)), requestTimeoutMs);
    });
    const answered = Promise.resolve(handler(request, connection)).finally(() => clearTimeout(timer));
    // After a 408 the app's own answer (its body read failing as the connection closes) goes nowhere.
    answered.catch(() => undefined);
    return Promise.race([answered, late]);
  };
}

// The few members of the runtimes' own APIs used here (their full typings are each runtime's, not installed here).
interface BunServer {
  stop(closeActiveConnections?: boolean): Promise<void>;
  timeout(request: Request, seconds: number): void;
}
declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    idleTimeout: number;
    maxRequestBodySize: number;
    fetch(request: Request, server: BunServer): Response | Promise<Response>;
  }): BunServer;
};
interface DenoServer {
  shutdown(): Promise<void>;
  finished: Promise<void>;
}
declare const Deno: {
  serve(
    options: { hostname: string; port: number; signal: AbortSignal; onListen(): void },
    handler: (request: Request, info: object) => Response | Promise<Response>,
  ): DenoServer;
};

/**
 * Bun.serve with the contract's limits: its own head limit is 16 KiB (Bun's default, `--max-http-header-size`); an
 * idle connection is closed after the keep-alive timeout (`idleTimeout`, whole seconds). Bun's body limit is left
 * above the contract's 1 MiB so that the app's own 413 (problem+json) answers first.
 */
export const listenWithBun: FetchListen = (handler, { host, port }, onListening) => {
  const rules = withNodeHttpRules(handler);
  const server = Bun.serve({
    hostname: host,
    port,
    idleTimeout: HTTP_LIMITS.keepAliveTimeoutMs / 1000,
    maxRequestBodySize: 4 * HTTP_LIMITS.bodyBytes,
    fetch(request, server) {
      // idleTimeout is also how long a request may go without a byte: one sending its body slowly gets the whole
      // request timeout instead, after which withNodeHttpRules answers 408 and closes the connection.
      if (request.body !== null) server.timeout(request, HTTP_LIMITS.requestTimeoutMs / 1000 + 5);
      return rules(request, server);
    },
  });
  onListening();
  return { stop: () => server.stop(false), closeAll: () => void server.stop(true) };
};

/**
 * Deno.serve: it has no head limit of its own below hyper's ~400 KiB, so the contract's 16 KiB is checked on the
 * parsed request (`withHeadLimit`). It has no setting for the head, request or keep-alive timeouts, and after the
 * 408 of `withNodeHttpRules` it keeps the connection while the body is still arriving (harness deviations.ts).
 * `shutdown()` stops accepting and waits for the requests in flight; aborting closes the rest.
 */
export const listenWithDeno: FetchListen = (handler, { host, port }, onListening) => {
  const abort = new AbortController();
  const server = Deno.serve(
    { hostname: host, port, signal: abort.signal, onListen: onListening },
    withHeadLimit(withNodeHttpRules(handler)),
  );
  return { stop: () => server.shutdown(), closeAll: () => abort.abort() };
};
