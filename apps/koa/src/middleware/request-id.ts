import { requestIdFrom } from "@api-ref/server";
import type { Middleware } from "koa";

/** Every response, errors included, carries `x-request-id` (the client's own when valid); handlers read `ctx.state.requestId`. */
export const requestId: Middleware = async (ctx, next) => {
  ctx.state.requestId = requestIdFrom(ctx.req.headers["x-request-id"]);
  ctx.set("x-request-id", ctx.state.requestId);
  await next();
};
