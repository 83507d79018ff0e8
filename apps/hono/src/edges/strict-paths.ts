import { createServer, type IncomingMessage, type ServerOptions } from "node:http";
import { unmatched } from "@api-ref/contract";
import { UNMATCHED_ROUTE } from "@api-ref/server";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import type { NotFoundHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { sendProblem } from "./problems.ts";

/** Where `originFormOnly` keeps a request target that is not a path. */
const TARGET_AS_SENT = Symbol("target as sent");
type Incoming = IncomingMessage & { [TARGET_AS_SENT]?: string };

/**
 * @hono/node-server builds each request's URL from its target, and answers an empty 400 itself when the target is
 * neither a path nor an absolute URL (`*`, the asterisk-form of `OPTIONS * HTTP/1.1`). The contract says such a
 * target is no path: a 404, from the app like any other. So the request goes on with the URL `/`, and keeps its
 * target for routing (`pathAsSent`), which no route matches.
 */
export function originFormOnly(incoming: IncomingMessage): IncomingMessage {
  const target = incoming.url ?? "";
  if (target.startsWith("/") || /^https?:\/\//i.test(target)) return incoming;
  (incoming as Incoming)[TARGET_AS_SENT] = target;
  incoming.url = "/";
  return incoming;
}

/**
 * Hono's `getPath` option: the path to route on, exactly as the client sent it. Hono's default `getPath`
 * percent-decodes the path before routing (`/%75sers` would be `/users`), and @hono/node-server builds the
 * request's URL with WHATWG `new URL()` whenever the target holds a `%`, which resolves dot segments
 * (`/users/%2e%2e/users` would be `/users`). The contract matches literal segments only as spelled and resolves no
 * dot segments, as Express does, so routing uses Node's own `req.url`. Path parameters are still decoded, by
 * `c.req.param()`.
 */
export function pathAsSent(request: Request, options?: { env?: Partial<HttpBindings> }): string {
  const incoming = options?.env?.incoming as Incoming | undefined;
  // Without Node's request (`app.request()` in tests), the Request's URL.
  let target = incoming?.[TARGET_AS_SENT] ?? incoming?.url ?? request.url;
  if (/^https?:\/\//i.test(target)) {
    // Absolute-form (`GET http://host/users`), or the Request's URL: the path after the authority, as sent.
    const rest = target.slice(target.indexOf("://") + 3);
    const start = rest.search(/[/?#]/);
    target = start === -1 ? "/" : rest[start] === "/" ? rest.slice(start) : `/${rest.slice(start)}`;
  }
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

/**
 * What `serve()` of @hono/node-server does — `http.createServer()` around Hono's `fetch` — written out, so that a
 * request whose target is not a path (`*`) reaches the app (`originFormOnly`). `hostname` is the host of the URL
 * built for an HTTP/1.0 request without a Host header; `options` are node:http's (`serverOptions` of `serve()`).
 */
export function createNodeServer(
  fetch: Parameters<typeof getRequestListener>[0],
  hostname: string,
  options: ServerOptions = {},
) {
  const listener = getRequestListener(fetch, { hostname });
  return createServer(options, (incoming, outgoing) => listener(originFormOnly(incoming), outgoing));
}

/**
 * `app.notFound`: no route took the request. Hono has no 405 of its own (a known path with another method is a
 * route-not-found too): the contract's `unmatched()` decides, from its route table — a 405 with `allow` on a path
 * the contract serves, a 404 elsewhere.
 */
export const notFound: NotFoundHandler<AppEnv> = (c) => {
  const { problem: answer, template } = unmatched(c.req.method, c.req.path);
  c.set("route", template ?? UNMATCHED_ROUTE);
  return sendProblem(c, answer);
};
