import { API_CONTENT_SECURITY_POLICY } from "@api-ref/contract";
import type { Plugin } from "@hapi/hapi";

declare module "@hapi/hapi" {
  interface PluginSpecificConfiguration {
    /** A route's own policy, in the place of the API's: `options: { plugins: { "content-security-policy": "…" } }`. */
    "content-security-policy"?: string;
  }
}

const HEADER = "content-security-policy";

/**
 * The content-security-policy of every response, which Hapi's route option `security` (x-frame-options,
 * x-content-type-options, …; app.ts) does not set: the API's, or the route's own (/docs, its page's). On
 * `onPreResponse`, after the problem handler, so that errors, 404s and 405s carry it too.
 */
export const contentSecurityPolicyPlugin: Plugin<void> = {
  name: "content-security-policy",
  register(server) {
    server.ext(
      "onPreResponse",
      (request, h) => {
        const policy = request.route.settings.plugins?.[HEADER] ?? API_CONTENT_SECURITY_POLICY;
        const response = request.response;
        if ("isBoom" in response && response.isBoom) response.output.headers[HEADER] = policy;
        else if ("header" in response) response.header(HEADER, policy);
        return h.continue;
      },
      { after: ["problem-handler"] },
    );
  },
};
