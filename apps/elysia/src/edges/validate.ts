import { parse } from "node:querystring";
import { parseRequestPart } from "@api-ref/contract";
import type { z } from "zod";

/**
 * The query, parsed as Express's `simple` parser does (`node:querystring`: `+` is a space, a repeated key is an
 * array, `?limit` is an empty string) and validated with the contract's schema, in the handler. Params, headers and
 * bodies are Elysia's own route schemas; the query cannot be: for a Standard Schema Elysia parses it with a parser of
 * its own that splits every value at commas and reads `[…]`/`{…}` as JSON (`include=user,product` would arrive as an
 * array), and without one it keeps only the last of a repeated key (`limit=1&limit=2` would be `2`, where the
 * contract wants a 400). Called first in the handler, it runs after the params, as the contract's order wants.
 */
export function validQuery<S extends z.ZodType>(schema: S, request: Request): z.output<S> {
  const start = request.url.indexOf("?");
  const query = start === -1 ? {} : { ...parse(request.url.slice(start + 1)) };
  return parseRequestPart(schema, query, "query");
}
