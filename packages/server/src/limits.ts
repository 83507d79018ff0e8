// The HTTP limits every implementation configures, stated once (README "Edges of HTTP" in packages/contract).
// Node's defaults are close to these but not all alike across frameworks (Fastify keeps connections alive for
// 72 s, Node for 5 s; Node checks its timeouts only every 30 s), and FastAPI's server has none of the first
// three: each app sets them explicitly from here (apps/fastapi/app/edges/http_limits.py mirrors the numbers).
import type { ServerOptions } from "node:http";
import { BODY_LIMIT_BYTES } from "./http.ts";

export const HTTP_LIMITS = {
  /** Request line plus header fields; more is a 431 (the URL counts here: a longer one is a 431 too). */
  maxHeaderBytes: 16 * 1024,
  /** The whole request head must arrive within this (a client sending a byte a second is cut off). */
  headersTimeoutMs: 10_000,
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** Request bodies (a 413 past it). */
  bodyBytes: BODY_LIMIT_BYTES,
} as const;

/**
 * `http.createServer` options stating the limits. Node enforces the two timeouts on a timer, every
 * `connectionsCheckingInterval` (30 s by default, which would let a slow client hold a connection three times
 * the bound): once a second here. A request without `host` over HTTP/1.1 is a 400 (RFC 9112; Node's default).
 */
export const httpServerOptions = {
  maxHeaderSize: HTTP_LIMITS.maxHeaderBytes,
  headersTimeout: HTTP_LIMITS.headersTimeoutMs,
  requestTimeout: HTTP_LIMITS.requestTimeoutMs,
  keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
  connectionsCheckingInterval: 1_000,
  requireHostHeader: true,
} as const satisfies ServerOptions;
