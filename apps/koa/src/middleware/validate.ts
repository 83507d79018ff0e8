import { parseRequestPart } from "@api-ref/contract";
import type { RouterMiddleware } from "@koa/router";
import type { DefaultState } from "koa";
import type { z } from "zod";

interface Schemas {
  params?: z.ZodType;
  headers?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

/** What a route's handlers find in `ctx.state` once `validate(schemas)` has run: the parsed, coerced values. */
export type Validated<S extends Schemas> = {
  [K in keyof S]: S[K] extends z.ZodType ? z.output<S[K]> : never;
};

/**
 * Validates the request against the contract's schemas, in the contract's order (params, headers, query, body),
 * and puts the parsed values in `ctx.state` — the place Koa keeps per-request data for later middleware. The
 * state's type flows into the handler: `router.get(path, validate({ query }), (ctx) => ctx.state.query)`, next to
 * Koa's `DefaultState` (`ctx.state.user`, which `authenticate` sets).
 */
export function validate<S extends Schemas>(schemas: S): RouterMiddleware<DefaultState & Validated<S>> {
  return async (ctx, next) => {
    const state = ctx.state as Record<string, unknown>;
    if (schemas.params) state.params = parseRequestPart(schemas.params, ctx.params, "params");
    if (schemas.headers) state.headers = parseRequestPart(schemas.headers, ctx.headers, "headers");
    if (schemas.query) state.query = parseRequestPart(schemas.query, ctx.query, "query");
    if (schemas.body) state.body = parseRequestPart(schemas.body, ctx.request.body, "body");
    await next();
  };
}
