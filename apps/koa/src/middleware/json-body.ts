import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createUnzip } from "node:zlib";
import { BODY_LIMIT_BYTES, isJsonContentType, malformedJson, parseJson, unsupportedMediaType } from "@api-ref/core";
import type { Middleware } from "koa";
import getRawBody from "raw-body";

declare module "koa" {
  interface Request {
    /** The parsed JSON body (undefined when the request had none); validation puts the checked one in `ctx.state.body`. */
    body?: unknown;
  }
}

const hasBody = (headers: IncomingMessage["headers"]) =>
  headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0;

/** The body stream, inflated as Koa's body parsers (and Express's) do: gzip, deflate, br; 415 for other encodings. */
function inflated(req: IncomingMessage): Readable {
  switch ((req.headers["content-encoding"] ?? "identity").toLowerCase()) {
    case "identity":
      return req;
    case "gzip":
    case "deflate":
      return req.pipe(createUnzip());
    case "br":
      return req.pipe(createBrotliDecompress());
    default:
      throw unsupportedMediaType();
  }
}

/**
 * For routes that take a JSON body: 415 for other media types, 413 past 1 MiB (raw-body checks the declared
 * length before reading, and counts bytes while it reads), 400 for malformed JSON. The text is parsed by core's
 * `parseJson`, which refuses `__proto__`/`constructor.prototype` keys.
 */
export const jsonBody: Middleware = async (ctx, next) => {
  const contentType = ctx.get("content-type");
  if (hasBody(ctx.req.headers) && !isJsonContentType(contentType)) throw unsupportedMediaType();
  if (isJsonContentType(contentType)) {
    const stream = inflated(ctx.req);
    const text = await getRawBody(stream, {
      // The declared length is that of the encoded body: raw-body checks it only when nothing is inflated.
      length: stream === ctx.req ? (ctx.request.length ?? null) : null,
      limit: BODY_LIMIT_BYTES,
      encoding: "utf-8",
    }).catch((error: { code?: string }) => {
      // A body that does not inflate is as unreadable as malformed JSON.
      throw error.code?.startsWith("Z_") ? malformedJson() : error;
    });
    // An empty body is no body: validation then reports `body` as required.
    ctx.request.body = text.length > 0 ? parseJson(text) : undefined;
  }
  await next();
};
