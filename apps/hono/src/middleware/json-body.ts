import {
  BODY_LIMIT_BYTES,
  isJsonBody,
  malformedJson,
  parseJson,
  payloadTooLarge,
  unsupportedMediaType,
} from "@api-ref/core";
import type { HonoRequest } from "hono";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";

const hasBody = (req: HonoRequest) =>
  req.header("transfer-encoding") !== undefined || Number(req.header("content-length") ?? 0) > 0;

/** 415 before a byte is read: not JSON (`application/json`, `application/*+json`, UTF-8 at most), or content-encoded. */
const refuseOtherMediaTypes = createMiddleware<AppEnv>(async (c, next) => {
  const headers = {
    "content-type": c.req.header("content-type"),
    "content-encoding": c.req.header("content-encoding"),
  };
  if (hasBody(c.req) && !isJsonBody(headers)) throw unsupportedMediaType();
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
 * The text is parsed by core's `parseJson`, which refuses `__proto__`/`constructor.prototype` keys; `c.req.json()`
 * is plain `JSON.parse`. (`c.req.text()` decodes UTF-8 with `TextDecoder`, which drops a byte-order mark.)
 */
const parse = createMiddleware<AppEnv>(async (c, next) => {
  let text = "";
  if (hasBody(c.req)) {
    try {
      text = await c.req.text();
    } catch {
      // The client went away or sent less than it declared.
      throw malformedJson();
    }
  }
  // An empty body is no body: validation then reports `body` as required.
  c.set("body", text.length > 0 ? parseJson(text) : undefined);
  await next();
});

/** For routes that take a JSON body, in the contract's order: 415, then 413 past 1 MiB, then 400 for bad JSON. */
export const jsonBody = every(refuseOtherMediaTypes, limit, parse);
