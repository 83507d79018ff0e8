import { requestIdFrom } from "@api-ref/server";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";

/**
 * Every response, errors included, carries `x-request-id` (the client's own when valid); handlers read
 * `c.var.requestId`. Hono's own `requestId()` middleware is not used: it accepts ids of up to 255 characters of
 * `[A-Za-z0-9_=-]`, the contract 1–128 of `[A-Za-z0-9._-]` (`a=b` would be kept, `a.b` replaced).
 */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = requestIdFrom(c.req.header("x-request-id"));
  c.set("requestId", id);
  c.header("x-request-id", id);
  await next();
});
