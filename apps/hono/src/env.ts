import type { HttpBindings } from "@hono/node-server";
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
  };
}
