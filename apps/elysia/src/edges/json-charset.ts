import { Elysia, ElysiaCustomStatusResponse } from "elysia";

const JSON_UTF8 = "application/json; charset=utf-8";

/**
 * Elysia labels the objects it serializes `application/json`, without a charset (RFC 8259 defines none); the
 * contract says `application/json; charset=utf-8`, as Express, Fastify and Koa send it. One `onAfterHandle` hook
 * states it for every JSON answer of a handler (it returns nothing, so the answer itself is left to Elysia); the
 * error handler sets its own `application/problem+json`.
 */
export const jsonCharset = new Elysia({ name: "json-charset" }).onAfterHandle(
  { as: "global" },
  ({ responseValue, set }) => {
    const value = responseValue instanceof ElysiaCustomStatusResponse ? responseValue.response : responseValue;
    if (value !== null && typeof value === "object" && (Array.isArray(value) || value.constructor === Object)) {
      set.headers["content-type"] ??= JSON_UTF8;
    }
  },
);
