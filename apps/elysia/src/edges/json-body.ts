import { ProblemError } from "@api-ref/contract";
import {
  BODY_LIMIT_BYTES,
  hasNonJsonBody,
  malformedJson,
  parseJsonBody,
  payloadTooLarge,
  unsupportedMediaType,
} from "@api-ref/server";
import { Elysia } from "elysia";

/** A 413 that closes the connection: the rest of the body is never read (as Fastify and the Hono app do). */
const tooLarge = () =>
  new ProblemError("payloadTooLarge", payloadTooLarge().message, { headers: { connection: "close" } });

/** The body's bytes, at most `BODY_LIMIT_BYTES` of them, counted as they arrive (a chunked body declares no length). */
async function readBytes(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > BODY_LIMIT_BYTES) throw tooLarge();
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
 * What a request without a body is to the schema: `null`, which the contract's body schemas refuse as they refuse
 * a missing body, with one error on `body`.
 */
const NO_BODY = null;

/**
 * The contract's body rules, in its order: 415 before a byte is read (not JSON, or content-encoded), 413 past
 * 1 MiB (declared or counted), then `@api-ref/server`'s `parseJsonBody` (strict UTF-8, one byte-order mark ignored,
 * `__proto__`/`constructor.prototype` refused, 400 for malformed JSON). Not Elysia's `json` parser, which is
 * `request.json()`: it accepts any content type the route is given, decodes invalid UTF-8 as U+FFFD and keeps
 * prototype-poisoning keys. An empty body is no body: validation then reports `body` as required.
 */
async function readJsonBody(request: Request): Promise<unknown> {
  const headers = {
    "content-type": request.headers.get("content-type") ?? undefined,
    "content-encoding": request.headers.get("content-encoding") ?? undefined,
    "content-length": request.headers.get("content-length") ?? undefined,
    "transfer-encoding": request.headers.get("transfer-encoding") ?? undefined,
  };
  if (hasNonJsonBody(headers)) throw unsupportedMediaType();
  if (Number(headers["content-length"] ?? 0) > BODY_LIMIT_BYTES) throw tooLarge();
  const bytes = await readBytes(request);
  return bytes.length > 0 ? parseJsonBody(bytes) : NO_BODY;
}

/** `json: true` on a route that takes a JSON body: the contract's body rules, then the route's schema. */
export const jsonBody = new Elysia({ name: "json-body" }).macro({
  json: {
    // Elysia parses before every other hook, and the contract answers 401 and 403 first: parsing only claims the body
    // (not `undefined`, which Elysia's own parsers would take); the route's `transform`, after its group's, reads it.
    parse: () => NO_BODY,
    async transform(context) {
      context.body = await readJsonBody(context.request);
    },
  },
});
