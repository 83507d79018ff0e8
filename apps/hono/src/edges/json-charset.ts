import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";

const JSON_UTF8 = "application/json; charset=utf-8";

/**
 * `c.json()` labels its responses `application/json`, without a charset (RFC 8259 defines none); the contract
 * says `application/json; charset=utf-8`, as Express, Fastify and Koa send it. One middleware states it for every
 * JSON response, rather than a header argument on every `c.json()`.
 */
export const jsonCharset = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.res.headers.get("content-type") === "application/json") c.res.headers.set("content-type", JSON_UTF8);
});
