// The web-standard side of the no-framework baselines: a `fetch(request)` over a route table (http.ts), with the
// same per-request duties as common.ts's node:http server (an x-request-id on every response, the request metrics,
// problem+json errors, the JSON body read with its 415/413/400), served by the runtime's own server — `Bun.serve`
// on Bun, `Deno.serve` on Deno — on PORT/HOST, stopped gracefully on SIGTERM/SIGINT. Raw: no framework, nothing
// between the runtime's server and the handlers. bun-http, deno-http, bun-http-pg and bun-http-prisma run on it.
import { createHttpMetrics } from "@api-ref/server/metrics";
import {
  type Baseline,
  BODY_LIMIT,
  dispatch,
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

type FetchHandler = (request: Request) => Promise<Response>;

/** Reads a JSON object body: 415 for another media type, 413 past 1 MiB, 400 for anything but an object. */
async function readJson(request: Request): Promise<Record<string, unknown>> {
  if (mediaType(request.headers.get("content-type")) !== "application/json") throw unsupportedMediaType();
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > BODY_LIMIT) throw payloadTooLarge();
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > BODY_LIMIT) throw payloadTooLarge();
  return parseObject(new TextDecoder().decode(bytes));
}

const respond = (reply: Reply, requestId: string) =>
  new Response(reply.body ?? null, { status: reply.status, headers: { ...reply.headers, "x-request-id": requestId } });

/** A baseline's route table as a web-standard request handler, with request ids, metrics and problem+json errors. */
export function createFetchHandler({ framework, routes, onError }: Baseline): FetchHandler {
  const metrics = createHttpMetrics(framework);
  const table = routes(metrics);
  return async (request) => {
    const started = performance.now();
    const incoming = request.headers.get("x-request-id");
    const requestId = incoming !== null && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    const url = new URL(request.url);
    const found = dispatch(table, request.method, url.pathname);
    let reply: Reply;
    try {
      if ("problem" in found) throw found.problem;
      const incoming = {
        authorization: request.headers.get("authorization") ?? undefined,
        json: () => readJson(request),
      };
      reply = await found.handler(incoming, url, found.params);
    } catch (error) {
      reply = problemReply(error instanceof Problem ? error : onError(error));
    }
    // Observed once the answer is ready, as the node:http server observes it when the answer is written.
    metrics.observe(request.method, found.template, reply.status, (performance.now() - started) / 1000);
    return respond(reply, requestId);
  };
}

// The few members of the runtimes' own APIs used here (their full typings are each runtime's, not installed here).
interface BunServer {
  stop(closeActiveConnections?: boolean): Promise<void>;
}
declare const Bun:
  | { serve(options: { hostname: string; port: number; idleTimeout: number; fetch: FetchHandler }): BunServer }
  | undefined;
declare const Deno:
  | {
      serve(
        options: { hostname: string; port: number; signal: AbortSignal; onListen(): void },
        handler: FetchHandler,
      ): { shutdown(): Promise<void> };
    }
  | undefined;

/** Serves a baseline on PORT/HOST with the runtime's own server, and closes gracefully on SIGTERM/SIGINT. */
export function serve(baseline: Baseline, close: () => Promise<void> = async () => {}) {
  const handler = createFetchHandler(baseline);
  const port = Number(process.env.PORT ?? 3000);
  const hostname = process.env.HOST || "0.0.0.0";
  let stop: () => Promise<void>;
  let closeAll: () => void;
  if (typeof Bun !== "undefined") {
    // The contract's keep-alive timeout (5 s), as the node:http baselines have it.
    const server = Bun.serve({ hostname, port, idleTimeout: 5, fetch: handler });
    stop = () => server.stop(false);
    closeAll = () => void server.stop(true);
  } else if (typeof Deno !== "undefined") {
    const abort = new AbortController();
    const server = Deno.serve({ hostname, port, signal: abort.signal, onListen() {} }, handler);
    stop = () => server.shutdown();
    closeAll = () => abort.abort();
  } else {
    throw new Error("fetch-common serves on Bun or Deno; on Node the baselines use common.ts");
  }
  const shutdown = () => {
    setTimeout(closeAll, 5000).unref?.();
    void stop()
      .then(close)
      .then(() => process.exit(0));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}
