import { parseRequestPart, type RequestPart } from "@api-ref/contract";
import type { RouteOptionsValidate, ServerOptions } from "@hapi/hapi";
import type { z } from "zod";

interface Schemas {
  headers?: z.ZodType;
  params?: z.ZodType;
  query?: z.ZodType;
}

const PART: Record<keyof Schemas, RequestPart> = {
  headers: "headers",
  params: "params",
  query: "query",
};

/**
 * The route's `validate` option from the contract's Zod schemas; the body's schema is `jsonBody`'s (json-body.ts),
 * whose stream Hapi does not parse. Hapi accepts a validation function per source (`async (value) => parsed`):
 * what it returns replaces `request.params`, `request.query`, … and what it throws is handed to `failAction`,
 * which the server sets to rethrow it — so the contract's 400 (with `errors[]` paths like `params.id`) is the
 * response, not Hapi's generic "Invalid request params input".
 */
export function validateWith(schemas: Schemas): RouteOptionsValidate {
  const rules: RouteOptionsValidate = {};
  for (const source of Object.keys(schemas) as Array<keyof Schemas>) {
    const schema = schemas[source];
    if (!schema) continue;
    rules[source] = async (value: unknown) => {
      const parsed = parseRequestPart(schema, value, PART[source]);
      // request.headers is replaced by what validation returns: keep the headers the schema does not name.
      return source === "headers" ? { ...(value as object), ...(parsed as object) } : parsed;
    };
  }
  return rules;
}

/** Every route's `validate` option: rethrow what validation threw, which is already the contract's 400. */
export const RETHROW_VALIDATION = {
  failAction: (_request, _h, error) => {
    throw error;
  },
} as const satisfies NonNullable<ServerOptions["routes"]>["validate"];
