import { isContractPath, unmatched } from "@api-ref/contract";
import type { Plugin } from "@hapi/hapi";

/**
 * Hapi's router matches the path after decoding unreserved characters and resolving dot segments, so
 * `/%75sers` and `/users/%2e%2e/users` would both be `/users`. The contract matches a route's literal segments
 * only as spelled (README "Edges of HTTP" in packages/contract): a path that is no contract path as sent is a
 * 404 before routing.
 */
export const strictPathsPlugin: Plugin<void> = {
  name: "strict-paths",
  register(server) {
    server.ext("onRequest", (request, h) => {
      const { method, url } = request.raw.req;
      if (isContractPath(url)) return h.continue;
      throw unmatched(method, url).problem;
    });
  },
};
