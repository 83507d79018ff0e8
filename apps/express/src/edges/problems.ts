import { PROBLEM_CONTENT_TYPE, ProblemError, undecodable } from "@api-ref/contract";
import { unexpectedProblem } from "@api-ref/data-access";
import { fromRawBodyError } from "@api-ref/server";
import type { ErrorRequestHandler, Response } from "express";
import type { Logger } from "pino";

function sendProblem(res: Response, error: ProblemError) {
  res.status(error.status).set(error.headers).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(error.toJSON()));
}

/** The one error handler: every error leaves as problem+json; stack traces and internals never do. */
export const problemHandler =
  (logger: Logger): ErrorRequestHandler =>
  (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const log = req.log ?? logger;
    if (error instanceof ProblemError) return sendProblem(res, error);
    const known = fromRawBodyError(error); // body-parser's errors
    if (known) return sendProblem(res, known);
    // The router could not decode a path parameter (`/users/%zz`): 405, 400 on the parameter, or 404.
    if (error instanceof URIError) return sendProblem(res, undecodable(req.method, req.originalUrl).problem);
    sendProblem(res, unexpectedProblem(error, log));
  };
