import { Readable } from "node:stream";
import { ProblemError, parseRequestPart } from "@api-ref/contract";
import {
  BODY_LIMIT_BYTES,
  hasBody,
  hasNonJsonBody,
  malformedJson,
  parseJsonBody,
  payloadTooLarge,
  unsupportedMediaType,
} from "@api-ref/server";
import type { Lifecycle, RouteOptions, ServerOptions } from "@hapi/hapi";
import type { z } from "zod";

/**
 * Every route's `payload` option: Hapi reads and parses the body of every route that is not a GET; here only the
 * routes that take JSON read one (`jsonBody`), the others leave it unread as every other implementation does (else
 * a large body on a 405 would be a 413, and malformed JSON on a DELETE a 400).
 */
export const UNREAD_PAYLOAD = { output: "stream", parse: false, failAction: "ignore" } as const satisfies NonNullable<
  ServerOptions["routes"]
>["payload"];

/** The body's bytes, at most `BODY_LIMIT_BYTES` of them, counted as they arrive (a chunked body declares no length). */
async function readBytes(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Not destroyed on a 413: Hapi answers on the same connection, then closes it (the rest is never read).
    for await (const chunk of body.iterator({ destroyOnReturn: false })) {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) throw payloadTooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    // The client went away or sent less than it declared.
    throw malformedJson();
  }
  return Buffer.concat(chunks, size);
}

/**
 * `onPostAuth`, the first extension point after Hapi's scope check: 415 unless the body is JSON in UTF-8 and not
 * content-encoded (before a byte is read, so 415 comes before 413), 413 past 1 MiB (declared, or counted while
 * reading), then `@api-ref/server`'s `parseJsonBody`, as every implementation parses (README "Edges of HTTP"): strict
 * UTF-8 with one byte-order mark ignored, which Hapi's own parser (bourne over `toString()`) refuses, the depth limit,
 * and `__proto__`/`constructor.prototype` keys refused.
 */
const readJsonBody: Lifecycle.Method = async (request, h) => {
  const { headers } = request.raw.req;
  if (hasNonJsonBody(headers)) throw unsupportedMediaType();
  if (Number(headers["content-length"] ?? 0) > BODY_LIMIT_BYTES) throw payloadTooLarge();
  const body = request.payload;
  // Not a stream only when Hapi's payload step refused the content-type header (and dropped the body).
  if (!(body instanceof Readable) && hasBody(headers)) throw malformedJson();
  const bytes = body instanceof Readable ? await readBytes(body) : Buffer.alloc(0);
  // An empty body is no body: validation then reports `body` as required. The lifecycle's own field, which Hapi's
  // parser would have set; its types mark it read-only for handlers.
  (request as { payload: unknown }).payload = bytes.length > 0 ? parseJsonBody(bytes) : null;
  return h.continue;
};

/**
 * `onPreHandler`, right after Hapi's validation of headers, params and query: the body, with the contract's schema,
 * in the place of the route's `validate.payload` (which Hapi allows only with a payload it parses itself).
 */
const validateBody =
  (schema: z.ZodType): Lifecycle.Method =>
  (request, h) => {
    (request as { payload: unknown }).payload = parseRequestPart(schema, request.payload, "body");
    return h.continue;
  };

/** The route options of every route that takes a JSON body, validated with the contract's `schema`. */
export const jsonBody = (schema: z.ZodType) =>
  ({
    // Hapi's payload step runs before its scope check, and the contract answers 401 and 403 first: the step only hands
    // the stream over (unread, undecoded, no 413 of its own), and `onPostAuth`, after the scope check, reads it.
    payload: { output: "stream", parse: false, maxBytes: Number.MAX_SAFE_INTEGER },
    ext: {
      onPostAuth: { method: readJsonBody },
      onPreHandler: { method: validateBody(schema) },
    },
  }) satisfies RouteOptions;
