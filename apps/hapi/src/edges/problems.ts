import { PROBLEM_CONTENT_TYPE, ProblemError, problem, undecodable } from "@api-ref/contract";
import { forbidden, unexpectedProblem } from "@api-ref/data-access";
import { payloadTooLarge, unsupportedMediaType } from "@api-ref/server";
import type { Boom } from "@hapi/boom";
import type { Plugin, Request } from "@hapi/hapi";
import type { Logger } from "pino";

/** Any error a request ended with — the contract's own, Hapi's Booms, an unreachable database, a bug — as a problem. */
function toProblem(error: Boom, request: Request, logger: Logger): ProblemError {
  // Hapi boomifies what a handler throws in place, so the contract's errors are still what they were.
  if (error instanceof ProblemError) return error;
  switch (error.output.statusCode) {
    // Hapi's scope check (`auth.access.scope`): the contract's 403, with its `insufficient_scope` challenge.
    case 403:
      return forbidden();
    case 404:
      return problem("notFound", `Nothing lives at ${request.path}.`);
    case 413:
      return payloadTooLarge();
    case 415:
      return unsupportedMediaType();
    case 400:
      // Hapi's own 400s: a request target that is not a URL (`OPTIONS *`) names nothing (404); a path that is not
      // valid percent-encoding is decided from the route table (405, 400 on the parameter, or 404).
      if (request.url === null) return problem("notFound", "Nothing lives at this address.");
      return undecodable(request.method.toUpperCase(), request.raw.req.url).problem;
  }
  // Hapi boomifies any other error as a 500: an unreachable database (503) or a bug.
  return unexpectedProblem(error, logger);
}

/**
 * Hapi answers errors with Boom's JSON (`{ statusCode, error, message }`); here none of those bodies reaches a
 * client: on `onPreResponse`, every Boom — the contract's `ProblemError`s thrown in handlers, validation, extension
 * points and the auth scheme (a 401 and its `www-authenticate`), and Hapi's own 403/404/413/415/400/500 — is
 * replaced by `application/problem+json`, with the problem's headers.
 */
export const problemHandler: Plugin<{ logger: Logger }> = {
  name: "problem-handler",
  register(server, { logger }) {
    server.ext("onPreResponse", (request, h) => {
      const response = request.response;
      if (!("isBoom" in response) || !response.isBoom) return h.continue;
      const known = toProblem(response, request, (request as { logger?: Logger }).logger ?? logger);
      const reply = h.response(known.toJSON()).code(known.status).type(`${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
      for (const [name, value] of Object.entries(known.headers)) reply.header(name, value);
      return reply;
    });
  },
};
