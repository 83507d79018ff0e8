import { isContractPath, methodNotAllowedProblem, methodsByPath, unmatched } from "@api-ref/contract";
import type { Plugin, ServerOptions } from "@hapi/hapi";
import { routeTemplate } from "../route-template.ts";

/** The server's `router` option: `/Users` and `/users/` are other paths than `/users` (404), as the contract says. */
export const STRICT_ROUTER = {
  isCaseSensitive: true,
  stripTrailingSlash: false,
} as const satisfies ServerOptions["router"];

/**
 * The contract's 404 and 405 where Hapi's router would answer otherwise:
 *
 * - Hapi matches the path after decoding unreserved characters and resolving dot segments, so `/%75sers` and
 *   `/users/%2e%2e/users` would both be `/users`. The contract matches a route's literal segments only as spelled
 *   (README "Edges of HTTP" in packages/contract): a path that is no contract path as sent is a 404 before routing.
 * - Hapi answers a known path with an unsupported method with a 404. A `*` route on each of the contract's paths
 *   catches every method its own routes do not serve (Hapi prefers the specific routes) and answers the 405 with
 *   `allow`, whoever asks (`auth: false`: routing comes before authentication).
 */
export const strictPathsPlugin: Plugin<void> = {
  name: "strict-paths",
  register(server) {
    server.ext("onRequest", (request, h) => {
      const { method, url } = request.raw.req;
      if (isContractPath(url)) return h.continue;
      throw unmatched(method, url).problem;
    });
    server.route(
      [...methodsByPath.keys()].map((template) => ({
        method: "*",
        path: template.replace(/:(\w+)/g, "{$1}"),
        options: {
          auth: false,
          handler(request) {
            throw methodNotAllowedProblem(request.method.toUpperCase(), routeTemplate(request.route.path));
          },
        },
      })),
    );
  },
};
