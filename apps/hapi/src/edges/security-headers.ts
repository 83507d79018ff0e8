import { API_CONTENT_SECURITY_POLICY } from "@api-ref/contract";
import type { Plugin, ServerOptions } from "@hapi/hapi";

declare module "@hapi/hapi" {
  interface PluginSpecificConfiguration {
    /** A route's own policy, in the place of the API's: `options: { plugins: { "content-security-policy": "…" } }`. */
    "content-security-policy"?: string;
  }
}

const HEADER = "content-security-policy";

/**
 * Every route's `security` option, Hapi's own security headers, on every response (errors, 404s and 405s are
 * answered through a route too): `x-frame-options: DENY` and `x-content-type-options: nosniff` as the contract says,
 * with Hapi's other defaults (HSTS, `x-xss-protection: 0`, `x-download-options: noopen`).
 */
export const SECURITY_HEADERS = { xframe: "deny", noSniff: true } as const satisfies NonNullable<
  ServerOptions["routes"]
>["security"];

/**
 * The content-security-policy of every response, which Hapi's route option `security` (above) does not set: the API's, or the route's own (/docs, its page's). On
 * `onPreResponse`, after the problem handler, so that errors, 404s and 405s carry it too.
 */
export const securityHeadersPlugin: Plugin<void> = {
  name: "security-headers",
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
