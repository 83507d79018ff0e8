import { problem } from "@api-ref/contract";
import { AUTH_RATE_WINDOW_SECONDS } from "@api-ref/server";
import type { Context, Middleware } from "koa";
import ratelimit from "koa-ratelimit";

declare module "koa-ratelimit" {
  interface MiddlewareOptions {
    /** Called once a client is past the limit: koa-ratelimit 6 has it, @types/koa-ratelimit 5 does not declare it. */
    onLimited?: (ctx: Context) => void;
  }
}

/**
 * koa-ratelimit for one route, with its memory driver (each limiter counts apart, in its own Map): at most `limit`
 * requests per client address in a fixed window of AUTH_RATE_WINDOW_SECONDS, whatever their outcome. Listed on
 * the route before `jsonBody`, so that past the limit nothing about the request is read.
 */
export const authRateLimit = (limit: number): Middleware =>
  ratelimit({
    driver: "memory",
    db: new Map(),
    duration: AUTH_RATE_WINDOW_SECONDS * 1000,
    max: limit,
    // `ctx.ip` is the socket's address while `app.proxy` is off (Koa's default, kept): no X-Forwarded-For is trusted.
    id: (ctx) => ctx.ip,
    // The contract's problem, thrown for `problemHandler` to render like every other. The library's own Retry-After
    // rounds down (0 in the window's last second); the contract's counts whole seconds up, at least 1, to the
    // window's end, which the library has just sent as X-RateLimit-Reset (epoch seconds).
    onLimited: (ctx) => {
      const resetsAt = Number(ctx.response.get("x-ratelimit-reset"));
      const retryAfter = Math.max(1, Math.ceil(resetsAt - Date.now() / 1000));
      const detail = `Too many requests to ${ctx.path} from this address; retry in ${retryAfter} s.`;
      throw problem("tooManyRequests", detail, { headers: { "retry-after": String(retryAfter) } });
    },
  });
