import { allowHeader, problem } from "@api-ref/contract";
import type { ServerRoute } from "@hapi/hapi";
import { routeTemplate } from "../route-template.ts";

/**
 * Hapi answers a known path with an unsupported method with a 404. A `*` route per path catches every method
 * its own routes do not serve (Hapi prefers the specific routes) and answers the contract's 405 with `allow`.
 */
export const methodNotAllowed = (path: string): ServerRoute => ({
  method: "*",
  path,
  handler(request) {
    const template = routeTemplate(request.route.path);
    throw problem("methodNotAllowed", `${request.method.toUpperCase()} is not supported on ${template}.`, {
      headers: { allow: allowHeader(template) },
    });
  },
});
