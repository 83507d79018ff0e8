import type { ProblemError } from "@api-ref/contract";
import {
  BODY_LIMIT_BYTES,
  hasNonJsonBody,
  malformedJson,
  parseJsonBody,
  payloadTooLarge,
  unsupportedMediaType,
} from "@api-ref/core";
import type { Boom } from "@hapi/boom";
import type { Lifecycle, RouteOptions } from "@hapi/hapi";

/**
 * Before Hapi reads a byte: 415 unless the body is JSON in UTF-8 and not content-encoded (so 415 comes before
 * 413, as the contract says; Hapi would otherwise inflate gzip and deflate).
 */
const requireJson: Lifecycle.Method = (request, h) => {
  const { headers } = request.raw.req;
  if (hasNonJsonBody(headers)) throw unsupportedMediaType();
  return h.continue;
};

/**
 * Hapi reads the body (at most 1 MiB) and core parses it, as every implementation does (README "Edges of HTTP"):
 * strict UTF-8 with one byte-order mark ignored, which Hapi's own parser (bourne over `toString()`) refuses and
 * accepts the other way round, the depth limit, and `__proto__`/`constructor.prototype` keys refused. This runs
 * after the payload step and before validation, where Hapi's parser would have run.
 */
const parseBody: Lifecycle.Method = (request, h) => {
  const bytes = request.payload;
  // An empty body is no body: validation then reports `body` as required.
  const parsed = Buffer.isBuffer(bytes) && bytes.length > 0 ? parseJsonBody(bytes) : null;
  // The lifecycle's own field, which Hapi's parser would have set; its types mark it read-only for handlers.
  (request as { payload: unknown }).payload = parsed;
  return h.continue;
};

/** What Hapi's payload step throws (Boom 413, 400 for a body cut short), as the contract's problems. */
function payloadProblem(error: Boom): ProblemError {
  if (error.output.statusCode === 413) return payloadTooLarge();
  if (error.output.statusCode === 415) return unsupportedMediaType();
  return malformedJson();
}

/**
 * The route options of every route that takes a JSON body: Hapi reads it (at most 1 MiB) and core parses it, with
 * the two extension points the contract needs around that step.
 */
export const jsonBody = {
  payload: {
    output: "data",
    // The bytes as read: Hapi asserts a truthy `parse` on routes that validate a payload, and `"gunzip"` is the
    // raw-bytes value it accepts (no body is ever decompressed: `requireJson` refuses content-encoding first).
    parse: "gunzip",
    maxBytes: BODY_LIMIT_BYTES,
    failAction: (_request, _h, error) => {
      throw payloadProblem(error as Boom);
    },
  },
  ext: {
    onPreAuth: { method: requireJson },
    onPostAuth: { method: parseBody },
  },
} satisfies RouteOptions;
