import type { Principal } from "@api-ref/data-access";
import type { HttpBindings } from "@hono/node-server";
import type { RateLimitInfo } from "hono-rate-limiter";
import type { Logger } from "pino";

/**
 * The app's `Env`: what every handler and middleware finds on `c.env` and `c.var`, typed once and passed to each
 * `new Hono<AppEnv>()` and `createMiddleware<AppEnv>()`.
 */
export interface AppEnv {
  /** @hono/node-server's bindings: Node's own request and response (absent under `app.request()` in tests). */
  Bindings: Partial<HttpBindings>;
  Variables: {
    /** The request id (`x-request-id`), set first for every request. */
    requestId: string;
    /** The request's child logger, when logging is on. */
    log?: Logger;
    /** The JSON body `jsonBody` parsed (undefined when the request had none); `body(schema)` validates it. */
    body?: unknown;
    /** The metrics `route` label of a request no route answered (set by the not-found handler). */
    route?: string;
    /** hono-rate-limiter's count for this client on a limited route (its `requestPropertyName`). */
    rateLimit?: RateLimitInfo;
  };
}

/**
 * The env of a route behind `authenticate`: `c.var.user` is the caller. The middleware is typed with it, and Hono
 * adds a middleware's env to the handlers after it in the route, so only those routes' handlers see `user`.
 */
export interface AuthEnv extends AppEnv {
  Variables: AppEnv["Variables"] & {
    /** Who is calling: the token's user and their current role (the data access's `Principal`). */
    user: Principal;
  };
}
