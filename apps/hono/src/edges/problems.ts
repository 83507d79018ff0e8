import { PROBLEM_CONTENT_TYPE, ProblemError } from "@api-ref/contract";
import { unexpectedProblem } from "@api-ref/data-access";
import { payloadTooLarge } from "@api-ref/server";
import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "pino";
import type { AppEnv } from "../env.ts";

export const sendProblem = (c: Context<AppEnv>, error: ProblemError) =>
  c.body(JSON.stringify(error.toJSON()), error.status as ContentfulStatusCode, {
    ...error.headers,
    "content-type": PROBLEM_CONTENT_TYPE,
  });

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
