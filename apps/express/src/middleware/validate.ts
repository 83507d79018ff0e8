import { parseRequestPart } from "@api-ref/contract";
import type { RequestHandler } from "express";
import type { z } from "zod";

interface Schemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  headers?: z.ZodType;
}

/**
 * Validates the request against the contract's schemas. The parsed (coerced, defaulted) values go to
 * `res.locals` — Express 5's `req.query` is read-only — and the body replaces `req.body`.
 */
export function validate(schemas: Schemas): RequestHandler {
  return (req, res, next) => {
    if (schemas.params) res.locals.params = parseRequestPart(schemas.params, req.params, "params");
    if (schemas.headers) res.locals.headers = parseRequestPart(schemas.headers, req.headers, "headers");
    if (schemas.query) res.locals.query = parseRequestPart(schemas.query, req.query, "query");
    if (schemas.body) req.body = parseRequestPart(schemas.body, req.body, "body");
    next();
  };
}
