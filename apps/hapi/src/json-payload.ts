import { type ProblemError, problem } from "@api-ref/contract";
import {
  BODY_LIMIT_BYTES,
  isJsonBody,
  jsonValueTooDeep,
  MAX_JSON_DEPTH,
  malformedJson,
  payloadTooLarge,
  prototypePoisoning,
  unsupportedMediaType,
} from "@api-ref/core";
import type { Boom } from "@hapi/boom";
import type { Lifecycle, RouteOptions } from "@hapi/hapi";
import secureJson from "secure-json-parse";

const hasBody = (headers: Record<string, string | string[] | undefined>) =>
  headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0;

/**
 * Before Hapi reads a byte: 415 unless the body is JSON in UTF-8 and not content-encoded (so 415 comes before
 * 413, as the contract says; Hapi would otherwise inflate gzip and deflate).
 */
const requireJson: Lifecycle.Method = (request, h) => {
  const { headers } = request.raw.req;
  if (!hasBody(headers)) return h.continue;
  if (!isJsonBody(headers)) throw unsupportedMediaType();
  return h.continue;
};

/** Hapi's parser (bourne) refuses `__proto__` keys; the contract refuses `constructor.prototype` too. */
const refuseConstructorPrototype: Lifecycle.Method = (request, h) => {
  // Hapi parsed the body itself, so the contract's depth limit is checked on the value.
  if (jsonValueTooDeep(request.payload))
    throw problem("malformedJson", `The body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    if (request.payload && typeof request.payload === "object") {
      secureJson.scan(request.payload, { protoAction: "error", constructorAction: "error" });
    }
  } catch {
    throw prototypePoisoning();
  }
  return h.continue;
};

/** What Hapi's payload step throws (Boom 413, 400 with bourne's SyntaxError as `data`), as the contract's problems. */
function payloadProblem(error: Boom): ProblemError {
  if (error.output.statusCode === 413) return payloadTooLarge();
  if (error.output.statusCode === 415) return unsupportedMediaType();
  const cause = error.data as { message?: string } | null;
  if (/forbidden prototype property/.test(cause?.message ?? "")) return prototypePoisoning();
  return malformedJson();
}

/**
 * The route options of every route that takes a JSON body: Hapi reads it (at most 1 MiB) and parses it with its
 * own JSON parser, with the two extension points the contract needs around that step.
 */
export const jsonPayload = {
  payload: {
    output: "data",
    parse: true,
    maxBytes: BODY_LIMIT_BYTES,
    protoAction: "error",
    failAction: (_request, _h, error) => {
      throw payloadProblem(error as Boom);
    },
  },
  ext: {
    onPreAuth: { method: requireJson },
    onPostAuth: { method: refuseConstructorPrototype },
  },
} satisfies RouteOptions;
