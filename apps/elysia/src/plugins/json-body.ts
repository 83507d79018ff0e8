import { ProblemError } from "@api-ref/contract";
import {
  BODY_LIMIT_BYTES,
  hasNonJsonBody,
  malformedJson,
  parseJsonBody,
  payloadTooLarge,
  unsupportedMediaType,
} from "@api-ref/core";
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
 * What the parser answers for a request without a body. Not `undefined`: for that Elysia falls back to its own
 * parser for the content type (`request.json()` of nothing, a parse error). The contract's body schemas refuse
 * `null` as they refuse a missing body, with one error on `body`.
 */
const NO_BODY = null;

/**
 * Elysia's body parser for the contract, registered by name (`.parser("contractJson", …)`) and chosen per route
 * with `parse: "contractJson"`, in the contract's order: 415 before a byte is read (not JSON, or content-encoded),
 * 413 past 1 MiB (declared or counted), then core's `parseJsonBody` (strict UTF-8, one byte-order mark ignored,
 * `__proto__`/`constructor.prototype` refused, 400 for malformed JSON). Not Elysia's `json` parser, which is
 * `request.json()`: it accepts any content type the route is given, decodes invalid UTF-8 as U+FFFD and keeps
 * prototype-poisoning keys. An empty body is no body: validation then reports `body` as required.
 */
export const jsonBody = new Elysia({ name: "json-body" }).parser("contractJson", async ({ request }) => {
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
});
