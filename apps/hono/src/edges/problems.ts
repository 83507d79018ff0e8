import { PROBLEM_CONTENT_TYPE, ProblemError, unmatched } from "@api-ref/contract";
import { payloadTooLarge, UNMATCHED_ROUTE, unexpectedProblem } from "@api-ref/core";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "pino";
import type { AppEnv } from "../env.ts";

const sendProblem = (c: Context<AppEnv>, error: ProblemError) =>
  c.body(JSON.stringify(error.toJSON()), error.status as ContentfulStatusCode, {
    ...error.headers,
    "content-type": PROBLEM_CONTENT_TYPE,
  });

/**
 * `app.notFound`: no route took the request. Hono has no 405 of its own (a known path with another method is a
 * route-not-found too): the contract's `unmatched()` decides, from its route table — a 405 with `allow` on a path
 * the contract serves, a 404 elsewhere.
 */
export const notFound: NotFoundHandler<AppEnv> = (c) => {
  const { problem: answer, template } = unmatched(c.req.method, c.req.path);
  c.set("route", template ?? UNMATCHED_ROUTE);
  return sendProblem(c, answer);
};

/**
 * `app.onError`: every error thrown in a handler or middleware — the contract's `ProblemError`s, Hono's
 * `HTTPException`s, an unreachable database (503) and bugs (500, logged, no details) — leaves as
 * `application/problem+json`. Hono's default (`Internal Server Error` as text, or the exception's own response)
 * never reaches a client.
 */
export const problemHandler =
  (logger: Logger): ErrorHandler<AppEnv> =>
  (error, c) => {
    const log = c.var.log ?? logger;
    if (error instanceof ProblemError) return sendProblem(c, error);
    if (error instanceof HTTPException && error.status === 413) return sendProblem(c, payloadTooLarge());
    return sendProblem(c, unexpectedProblem(error, log));
  };
