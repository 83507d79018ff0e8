import { secureHeaders } from "hono/secure-headers";

/**
 * Hono's `secureHeaders`, first in the chain: it sets its headers on the response once the rest has answered, so
 * every response has them, problems from `app.onError` and `app.notFound` (404, 405) included. Its defaults, with
 * X-Frame-Options `DENY` (its default is `SAMEORIGIN`) and the contract's API policy, which Hono writes from these
 * directives as `default-src 'none'; frame-ancestors 'none'`. `overwrite: false` keeps a policy a route set itself:
 * /docs sends its page's own.
 */
export const securityHeaders = secureHeaders({
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  xFrameOptions: "DENY",
  overwrite: false,
});
