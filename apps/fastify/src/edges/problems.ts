// Every error leaves as the contract's application/problem+json: the app's own ProblemErrors, Fastify's errors
// (validation, content-type parsing, body limit, bad URLs), an unreachable database (503) and bugs (500, logged,
// no details). Fastify's own error bodies never reach a client.
import {
  API_CONTENT_SECURITY_POLICY,
  type FieldError,
  methodNotAllowedProblem,
  methodsByPath,
  PROBLEM_CONTENT_TYPE,
  ProblemError,
  type RequestPart,
  SECURITY_HEADERS,
  undecodable,
  unmatched,
  validationProblem,
} from "@api-ref/contract";
import { malformedJson, payloadTooLarge, unexpectedProblem, unsupportedMediaType } from "@api-ref/core";
import { hasZodFastifySchemaValidationErrors } from "@fastify/type-provider-zod";
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
  onRequestHookHandler,
} from "fastify";
import { z } from "zod";

export function sendProblem(reply: FastifyReply, error: ProblemError) {
  return reply.code(error.status).headers(error.headers).type(PROBLEM_CONTENT_TYPE).send(error.toJSON());
}

// ---- 400: validation ----------------------------------------------------------------------------------------

const PARTS: Record<string, RequestPart> = { body: "body", querystring: "query", params: "params", headers: "headers" };

const segments = (pointer: string, decode: (s: string) => string) =>
  pointer === "" || pointer === "/" ? [] : pointer.slice(1).split("/").map(decode);

/** The Zod type provider's errors are Zod issues in Fastify's shape: back to a ZodError for the contract's paths. */
function fromZodIssues(errors: FastifySchemaValidationError[], part: RequestPart) {
  const issues = errors.map((e) => ({
    ...e.params,
    code: e.keyword,
    path: segments(e.instancePath, (s) => s),
    message: e.message ?? "is not valid",
  }));
  return validationProblem(new z.ZodError(issues as z.core.$ZodIssue[]), part);
}

/** Ajv's errors, with the paths the contract's `fieldErrors` gives for the same failures. */
function fromAjvErrors(errors: FastifySchemaValidationError[], part: RequestPart) {
  const fields: FieldError[] = errors.map((e) => {
    const path = [part, ...segments(e.instancePath, (s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))];
    if (e.keyword === "additionalProperties") {
      return { path: [...path, String(e.params.additionalProperty)].join("."), message: "is not a known field" };
    }
    if (e.keyword === "required") path.push(String(e.params.missingProperty));
    return { path: path.join("."), message: e.message ?? "is not valid" };
  });
  return new ProblemError("validation", `The request ${part} is not valid.`, { errors: fields });
}

function validationFailed(error: FastifyError): ProblemError {
  const part = PARTS[error.validationContext ?? "body"] ?? "body";
  const errors = error.validation ?? [];
  return hasZodFastifySchemaValidationErrors(error) ? fromZodIssues(errors, part) : fromAjvErrors(errors, part);
}

// ---- the error handler ----------------------------------------------------------------------------------------

/** Fastify's own errors, by code, as the contract's problems (the same mapping Express makes for body-parser's). */
function fromFastify(error: FastifyError): ProblemError | undefined {
  if (error.validation) return validationFailed(error);
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return unsupportedMediaType();
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return payloadTooLarge();
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return malformedJson();
    default:
      return undefined;
  }
}

export function problemHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ProblemError) return sendProblem(reply, error);
  // Fastify still judges the content type (415) or a QUERY's missing one on a path no route serves; whatever it
  // finds, the answer for such a path is its 404 (or 405), as the contract checks the path first.
  if (request.is404) return notFoundHandler(request, reply);
  const known = fromFastify(error);
  if (known) return sendProblem(reply, known);
  return sendProblem(reply, unexpectedProblem(error, request.log));
}

// ---- 404 and 405 ----------------------------------------------------------------------------------------------

/**
 * `refuseOtherMethods(fastify, "/users")` at the end of a route plugin: every other method Fastify routes gets the
 * contract's 405 with `allow`. It answers in `onRequest`, before Fastify would read (and judge) a body: the
 * method is checked first.
 */
export function refuseOtherMethods(fastify: FastifyInstance, path: string) {
  const served = methodsByPath.get(path) ?? [];
  const refuse: onRequestHookHandler = async (request) => {
    throw methodNotAllowedProblem(request.method, path);
  };
  fastify.route({
    method: fastify.supportedMethods.filter((m) => !served.includes(m)),
    url: path,
    onRequest: refuse,
    handler: async () => {},
  });
}

/** 404, or 405 for a known path when the method is one Fastify does not route at all (e.g. PROPFIND). */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return sendProblem(reply, unmatched(request.method, request.url).problem);
}

/**
 * `frameworkErrors`: a path that is not valid percent-encoding (`/users/%zz`) fails in the router, before any
 * route or hook; the contract's route table decides (405, 400 on the parameter, or 404).
 */
export function badUrlHandler(_error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No hook runs here: the request id and the security headers (plugins/external/helmet.ts) are set by hand.
  reply.header("x-request-id", request.id);
  reply.headers({ ...SECURITY_HEADERS, "content-security-policy": API_CONTENT_SECURITY_POLICY });
  return sendProblem(reply, undecodable(request.method, request.url).problem);
}
