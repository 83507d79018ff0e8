import { methodNotAllowedProblem } from "@api-ref/contract";
import type { ServerRoute } from "@hapi/hapi";
import { routeTemplate } from "../route-template.ts";

/**
 * Hapi answers a known path with an unsupported method with a 404. A `*` route per path catches every method
 * its own routes do not serve (Hapi prefers the specific routes) and answers the contract's 405 with `allow`,
 * whoever asks (`auth: false`: routing comes before authentication).
 */
export const methodNotAllowed = (path: string): ServerRoute => ({
  method: "*",
  path,
  options: {
    auth: false,
    handler(request) {
      throw methodNotAllowedProblem(request.method.toUpperCase(), routeTemplate(request.route.path));
    },
  },
});
