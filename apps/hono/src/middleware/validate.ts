import { parseRequestPart, type RequestPart, validationProblem } from "@api-ref/contract";
import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../env.ts";

/** zValidator's hook: a failed parse is the contract's 400 (thrown, so `app.onError` renders it like any other). */
const failWith =
  (part: RequestPart) =>
  (result: { success: true } | { success: false; error: z.core.$ZodError }): void => {
    // The contract's schemas are Zod classic schemas: what they fail with is a `z.ZodError`.
    if (!result.success) throw validationProblem(result.error as z.ZodError, part);
  };

/** `c.req.valid("param")`, typed from the contract's schema. */
export const params = <S extends z.ZodType>(schema: S) => zValidator("param", schema, failWith("params"));
/** `c.req.valid("query")`; repeated keys arrive as arrays, as in Express's `simple` query parser. */
export const query = <S extends z.ZodType>(schema: S) => zValidator("query", schema, failWith("query"));
/** `c.req.valid("header")`; header names arrive lower-cased. */
export const headers = <S extends z.ZodType>(schema: S) => zValidator("header", schema, failWith("headers"));

/**
 * `c.req.valid("json")`: validates what `jsonBody` parsed. Not `zValidator("json", …)`: Hono's `json` target reads
 * the body only when the content type is JSON and validates `{}` otherwise (a request without a body would get an
 * error per missing field, where the contract wants one on `body`), and it parses with `JSON.parse`, which turns
 * an empty body into a malformed-JSON 400. The typing is the validator's: what goes in, what comes out.
 */
export const body =
  <S extends z.ZodType>(
    schema: S,
  ): MiddlewareHandler<AppEnv, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> =>
  async (c, next) => {
    c.req.addValidatedData("json", parseRequestPart(schema, c.var.body, "body") as object);
    await next();
  };
