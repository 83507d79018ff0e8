import { API_CONTENT_SECURITY_POLICY } from "@api-ref/contract";
import type { Middleware } from "koa";
import helmet from "koa-helmet";

/**
 * helmet's defaults with X-Frame-Options `DENY` (its default is `SAMEORIGIN`), and no content-security policy of
 * its own: helmet's is a web page's, and it joins directives with `;` where the contract's policy has `; `.
 */
const helmetHeaders = helmet({ contentSecurityPolicy: false, xFrameOptions: { action: "deny" } });

/**
 * First in the chain, so that every response has them, problems, 404s and 405s included (they are set before
 * `next()`, and the error middleware keeps what was set): helmet's headers and the contract's API policy, which
 * the /docs route replaces with its page's own.
 */
export const securityHeaders: Middleware = (ctx, next) => {
  ctx.set("content-security-policy", API_CONTENT_SECURITY_POLICY);
  return helmetHeaders(ctx, next);
};
