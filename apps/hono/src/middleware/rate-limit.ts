import { problem } from "@api-ref/contract";
import { AUTH_RATE_WINDOW_SECONDS } from "@api-ref/server";
import type { GetConnInfo } from "hono/conninfo";
import { rateLimiter } from "hono-rate-limiter";
import type { AppEnv } from "../env.ts";

/** The one count of every client whose address the server did not hand the app. */
const ADDRESS_UNKNOWN = "address-unknown";

export interface AuthRateLimitOptions {
  /** Requests per client address and window (`config.authRateLimit`). */
  limit: number;
  /** The runtime's `getConnInfo` (@hono/node-server/conninfo, hono/bun, hono/deno), given by the server entry. */
  getConnInfo?: GetConnInfo | undefined;
}

/**
 * hono-rate-limiter for one route (each limiter counts apart, in its own memory store): at most `limit` requests per
 * client address in a fixed window of AUTH_RATE_WINDOW_SECONDS, whatever their outcome. Listed on the route before
 * `jsonBody`, so that past the limit nothing about the request is read.
 */
export const authRateLimit = ({ limit, getConnInfo }: AuthRateLimitOptions) =>
  rateLimiter<AppEnv>({
    windowMs: AUTH_RATE_WINDOW_SECONDS * 1000,
    limit,
    // The socket's remote address, as the runtime's server saw it: no forwarding header is trusted. A server that hands
    // the app no bindings (`c.env`: app.request() in tests; `@api-ref/server`'s listenWithBun and listenWithDeno, which
    // pass the request alone) leaves all its clients one count: stricter than per address, never looser.
    keyGenerator: (c) => (c.env && getConnInfo?.(c).remote.address) || ADDRESS_UNKNOWN,
    // The contract's problem, thrown for `app.onError` to render like every other. The library has set its
    // `c.var.rateLimit` by then; its own Retry-After may be 0 in the window's last second, the contract's is >= 1.
    handler: (c) => {
      const resetTime = c.var.rateLimit?.resetTime;
      const secondsLeft = resetTime ? Math.ceil((resetTime.getTime() - Date.now()) / 1000) : AUTH_RATE_WINDOW_SECONDS;
      const retryAfter = Math.max(1, secondsLeft);
      const detail = `Too many requests to ${c.req.path} from this address; retry in ${retryAfter} s.`;
      throw problem("tooManyRequests", detail, { headers: { "retry-after": String(retryAfter) } });
    },
  });
