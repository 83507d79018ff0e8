import { API_CONTENT_SECURITY_POLICY } from "@api-ref/contract";
import type { RequestHandler } from "express";
import helmet from "helmet";

/** The contract's policy, as its exact string: helmet joins directives with `;` where the contract has `; `. */
const apiContentSecurityPolicy: RequestHandler = (_req, res, next) => {
  res.set("content-security-policy", API_CONTENT_SECURITY_POLICY);
  next();
};

/**
 * `app.use(securityHeaders)` before everything else, so that every response has them, errors, 404s and 405s
 * included: helmet's defaults with X-Frame-Options `DENY` (its default is `SAMEORIGIN`), and the contract's
 * content-security policy in place of helmet's, which is a web page's. The /docs route sets its page's own.
 */
export const securityHeaders: RequestHandler[] = [
  helmet({ contentSecurityPolicy: false, xFrameOptions: { action: "deny" } }),
  apiContentSecurityPolicy,
];
