// Every error leaves as the contract's application/problem+json: the app's own ProblemErrors, Fastify's errors
// (validation, content-type parsing, body limit, bad URLs), an unreachable database (503) and bugs (500, logged,
// no details). Fastify's own error bodies never reach a client.
import {
  type FieldError,
  PROBLEM_CONTENT_TYPE,
  ProblemError,
  type RequestPart,
  unmatched,
  validationProblem,
} from "@api-ref/contract";
import { unexpectedProblem } from "@api-ref/data-access";
import { malformedJson, payloadTooLarge, unsupportedMediaType } from "@api-ref/server";
import { hasZodFastifySchemaValidationErrors } from "@fastify/type-provider-zod";
import type { FastifyError, FastifyReply, FastifyRequest, FastifySchemaValidationError } from "fastify";
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
  if (request.is404) return sendProblem(reply, unmatched(request.method, request.url).problem);
  const known = fromFastify(error);
  if (known) return sendProblem(reply, known);
  return sendProblem(reply, unexpectedProblem(error, request.log));
}
