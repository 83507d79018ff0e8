import { PROBLEM_CONTENT_TYPE, ProblemError, type RequestPart, unmatched, validationProblem } from "@api-ref/contract";
import { unexpectedProblem } from "@api-ref/data-access";
import { Elysia } from "elysia";
import type { Logger } from "pino";
import type { z } from "zod";

/**
 * The one error handler, `onError`: every error — the contract's `ProblemError`s (with their headers: a 401's and
 * a 403's `www-authenticate`), Elysia's own (`NOT_FOUND`, `VALIDATION`), an unreachable database (503) and bugs
 * (500, logged, no details) — leaves as `application/problem+json`. Elysia's defaults (its validation error as JSON
 * of its own, `NOT_FOUND` as text) never reach a client. The status goes through `set`, so that `onAfterResponse`
 * (metrics) sees it.
 */
export const problemHandler = (logger: Logger) =>
  new Elysia({ name: "problem-handler" }).onError({ as: "global" }, ({ code, error, request, path, set }) => {
    let answer: ProblemError;
    if (error instanceof ProblemError) answer = error;
    else if (code === "NOT_FOUND") {
      // No route took the request. Elysia has no 405: the contract's `unmatched()` decides, from its route table —
      // a 405 with `allow` on a path the contract serves, a 404 elsewhere.
      answer = unmatched(request.method, path).problem;
    } else if (code === "VALIDATION") {
      // The contract's Zod schema failed (Elysia ran it as a Standard Schema): the contract's 400, its field paths
      // from the schema's own issues.
      const schema = (error.validator as { schema: z.ZodType }).schema;
      const result = schema.safeParse(error.value);
      answer = result.success
        ? unexpectedProblem(error, logger)
        : validationProblem(result.error, error.type as RequestPart);
    } else answer = unexpectedProblem(error, logger);
    set.status = answer.status;
    Object.assign(set.headers, answer.headers, { "content-type": PROBLEM_CONTENT_TYPE });
    return JSON.stringify(answer.toJSON());
  });
