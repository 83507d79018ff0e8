import type { HttpBindings } from "@hono/node-server";

/**
 * Hono's `getPath` option: the path to route on, exactly as the client sent it. Hono's default `getPath`
 * percent-decodes the path before routing (`/%75sers` would be `/users`), and @hono/node-server builds the
 * request's URL with WHATWG `new URL()` whenever the target holds a `%`, which resolves dot segments
 * (`/users/%2e%2e/users` would be `/users`). The contract matches literal segments only as spelled and resolves no
 * dot segments, as Express does, so routing uses Node's own `req.url`. Path parameters are still decoded, by
 * `c.req.param()`.
 */
export function pathAsSent(request: Request, options?: { env?: Partial<HttpBindings> }): string {
  let target = options?.env?.incoming?.url;
  if (target === undefined || !target.startsWith("/")) {
    // `app.request()` in tests, or an absolute-form target (`GET http://host/users`): the Request's URL.
    const url = request.url;
    target = url.slice(url.indexOf("/", url.indexOf("://") + 3));
  }
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}
