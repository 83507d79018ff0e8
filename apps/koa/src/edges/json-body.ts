import {
  BODY_LIMIT_BYTES,
  hasNonJsonBody,
  isJsonContentType,
  parseJsonBody,
  unsupportedMediaType,
} from "@api-ref/server";
import type { Middleware } from "koa";
import getRawBody from "raw-body";

declare module "koa" {
  interface Request {
    /** The parsed JSON body (undefined when the request had none); validation puts the checked one in `ctx.state.body`. */
    body?: unknown;
  }
}

/**
 * For routes that take a JSON body: 415 for other media types and for content-encoded bodies, 413 past 1 MiB (raw-body
 * checks the declared length before reading, and counts bytes while it reads), 400 for malformed JSON. The bytes are
 * decoded and parsed by `@api-ref/server`'s `parseJsonBody` (strict UTF-8, one byte-order mark ignored,
 * `__proto__`/`constructor.prototype` keys refused).
 */
export const jsonBody: Middleware = async (ctx, next) => {
  const contentType = ctx.get("content-type");
  if (hasNonJsonBody(ctx.req.headers)) throw unsupportedMediaType();
  if (isJsonContentType(contentType)) {
    const bytes = await getRawBody(ctx.req, { length: ctx.request.length ?? null, limit: BODY_LIMIT_BYTES });
    // An empty body is no body: validation then reports `body` as required.
    ctx.request.body = bytes.length > 0 ? parseJsonBody(bytes) : undefined;
  }
  await next();
};
