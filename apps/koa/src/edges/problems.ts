import { methodNotAllowedProblem, PROBLEM_CONTENT_TYPE, ProblemError, problem } from "@api-ref/contract";
import { fromRawBodyError, unexpectedProblem } from "@api-ref/core";
import type { Middleware } from "koa";
import type { Logger } from "pino";

/** `router.all(path, methodNotAllowed(path))` after a path's own methods: 405 with the contract's `allow`. */
export const methodNotAllowed =
  (path: string): Middleware =>
  (ctx) => {
    throw methodNotAllowedProblem(ctx.method, path);
  };

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
      // Nothing matched the path (a known path with another method is answered by its router.all()).
      if (ctx.status === 404 && ctx.body === undefined) throw problem("notFound", `Nothing lives at ${ctx.path}.`);
    } catch (error) {
      const log = (ctx.req as { log?: Logger }).log ?? logger;
      const known = (error instanceof ProblemError ? error : fromRawBodyError(error)) ?? unexpectedProblem(error, log);
      ctx.status = known.status;
      ctx.set(known.headers);
      ctx.type = `${PROBLEM_CONTENT_TYPE}; charset=utf-8`;
      ctx.body = known.toJSON();
    }
  };
