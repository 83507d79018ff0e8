// Fastify's side of the one error format. Requests served by a native route fail here: the app's ProblemErrors,
// the Zod type provider's validation errors, Fastify's own errors (content type, body limit, bad URL), an
// unreachable database (503) and bugs (500, logged, no details) all leave as application/problem+json. Requests
// served by a mounted Express router never get here: they fail in Express's own error middleware, mounted inside
// the Express sub-app (src/legacy/express.ts), which renders the same ProblemErrors the same way.
import {
  allowHeader,
  methodsByPath,
  PROBLEM_CONTENT_TYPE,
  ProblemError,
  problem,
  type RequestPart,
  undecodable,
  unmatched,
  validationProblem,
} from "@api-ref/contract";
import { isDatabaseUnavailable, malformedJson, payloadTooLarge, unsupportedMediaType } from "@api-ref/core";
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

/**
 * The Zod type provider reports Zod issues in Fastify's validation-error shape; turned back into a ZodError they
 * get the contract's `errors[].path`s from `validationProblem`, exactly as the Express `validate` middleware does.
 */
function validationFailed(error: FastifyError): ProblemError {
  const part = PARTS[error.validationContext ?? "body"] ?? "body";
  const issues = (error.validation ?? []).map((e: FastifySchemaValidationError) => ({
    ...e.params,
    code: e.keyword,
    path: e.instancePath === "" || e.instancePath === "/" ? [] : e.instancePath.slice(1).split("/"),
    message: e.message ?? "is not valid",
  }));
  return validationProblem(new z.ZodError(issues as z.core.$ZodIssue[]), part);
}

// ---- the error handler ----------------------------------------------------------------------------------------

/** Fastify's own errors, by code: the same mapping the Express error middleware makes for body-parser's. */
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
  // On a path nothing serves, Fastify still reads the body of the not-found route (and may judge its content
  // type or size); whatever it finds, the answer for such a path is its 404, as the contract checks the path first.
  if (request.is404) return notFoundHandler(request, reply);
  const known = fromFastify(error);
  if (known) return sendProblem(reply, known);
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, "database unavailable");
    return sendProblem(reply, problem("unavailable", "The database cannot be reached; try again shortly."));
  }
  request.log.error({ err: error }, "unhandled error");
  return sendProblem(reply, problem("internal", "An unexpected error occurred."));
}

// ---- 404 and 405 ----------------------------------------------------------------------------------------------

const methodNotAllowed = (method: string, path: string) =>
  problem("methodNotAllowed", `${method} is not supported on ${path}.`, { headers: { allow: allowHeader(path) } });

/**
 * `refuseOtherMethods(fastify, "/products")` beside a native path's routes: the Fastify counterpart of Express's
 * `router.route(path)….all(methodNotAllowed(path))`. Fastify answers an unrouted method with 404, so every other
 * method is routed to an `onRequest` hook that throws the contract's 405 with `allow`, before any body is read.
 */
export function refuseOtherMethods(fastify: FastifyInstance, path: string) {
  const served = methodsByPath.get(path) ?? [];
  const refuse: onRequestHookHandler = async (request) => {
    throw methodNotAllowed(request.method, path);
  };
  fastify.route({
    method: fastify.supportedMethods.filter((m) => !served.includes(m)),
    url: path,
    onRequest: refuse,
    handler: async () => {},
  });
}

/**
 * The one 404, for both worlds: a request no native route matched went through the Express routers first
 * (@fastify/express runs them in `onRequest`), and none of them answered either. A native path with a method
 * Fastify does not route at all (e.g. PROPFIND) is a 405: `unmatched` decides, from the contract's route table.
 */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return sendProblem(reply, unmatched(request.method, request.url).problem);
}

/**
 * `frameworkErrors`: a path that is not valid percent-encoding (`/users/%zz`) fails in Fastify's router, before
 * any hook, so before the Express routers too, whichever world serves the path. The contract's rule
 * (`undecodable`): 405 for a method the path does not serve, else the 400 on the parameter, else a 404.
 */
export function badUrlHandler(_error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header("x-request-id", request.id);
  return sendProblem(reply, undecodable(request.method, request.url).problem);
}
