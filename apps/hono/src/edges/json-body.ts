import {
  BODY_LIMIT_BYTES,
  hasBody,
  hasNonJsonBody,
  malformedJson,
  parseJsonBody,
  payloadTooLarge,
  unsupportedMediaType,
} from "@api-ref/server";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";

/** 415 before a byte is read: not JSON (`application/json`, `application/*+json`, UTF-8 at most), or content-encoded. */
const refuseOtherMediaTypes = createMiddleware<AppEnv>(async (c, next) => {
  const headers = c.req.header();
  if (hasNonJsonBody(headers)) throw unsupportedMediaType();
  await next();
});

/**
 * Hono's body limit: the declared length is checked before reading, a chunked body is counted while it is read.
 * The 413 closes the connection (as Fastify's does): the rest of the body is never read, and @hono/node-server,
 * which drains an unread body for up to 500 ms and then destroys the socket, would otherwise reset the next
 * request a keep-alive client sent on it (seen as ECONNRESET by the fault suite).
 */
const limit = bodyLimit({
  maxSize: BODY_LIMIT_BYTES,
  onError: (c) => {
    c.header("connection", "close");
    throw payloadTooLarge();
  },
});

/**
 * The bytes are decoded and parsed by `@api-ref/server`'s `parseJsonBody` (strict UTF-8, one byte-order mark ignored,
 * `__proto__`/`constructor.prototype` keys refused). Not `c.req.json()`, which is `JSON.parse` of `c.req.text()`:
 * a lenient decoder (invalid UTF-8 becomes U+FFFD) and no refusal of those keys.
 */
const parse = createMiddleware<AppEnv>(async (c, next) => {
  let bytes = new Uint8Array(0);
  if (hasBody(c.req.header())) {
    try {
      bytes = new Uint8Array(await c.req.arrayBuffer());
    } catch {
      // The client went away or sent less than it declared.
      throw malformedJson();
    }
  }
  // An empty body is no body: validation then reports `body` as required.
  c.set("body", bytes.length > 0 ? parseJsonBody(bytes) : undefined);
  await next();
});

/** For routes that take a JSON body, in the contract's order: 415, then 413 past 1 MiB, then 400 for bad JSON. */
export const jsonBody = every(refuseOtherMediaTypes, limit, parse);
