import { PROBLEM_CONTENT_TYPE, ProblemError } from "@api-ref/contract";
import { unexpectedProblem } from "@api-ref/data-access";
import { fromRawBodyError } from "@api-ref/server";
import type { Middleware } from "koa";
import type { Logger } from "pino";

/**
 * The one error middleware, first in the chain: every error thrown below it — the contract's `ProblemError`s,
 * raw-body's errors, an unreachable database (503) and bugs (500, logged, no details) — leaves as
 * `application/problem+json`. Koa's own error responses (plain text, `err.expose`) never reach a client.
 */
export const problemHandler =
  (logger: Logger): Middleware =>
  async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const log = (ctx.req as { log?: Logger }).log ?? logger;
      const known = (error instanceof ProblemError ? error : fromRawBodyError(error)) ?? unexpectedProblem(error, log);
      ctx.status = known.status;
      ctx.set(known.headers);
      ctx.type = `${PROBLEM_CONTENT_TYPE}; charset=utf-8`;
      ctx.body = known.toJSON();
    }
  };
