// What the security headers of one response must be (docs/api.md "Security headers"), shared by the security and
// rate-limit contract files: `x-content-type-options` and `x-frame-options` byte for byte, the content-security
// policy by its directives (helmet and its kin write `a;b`, others `a; b`; a directive changed, added or sent twice
// fails), so a header sent twice or changed fails.
import type { Response } from "supertest";
import { expect } from "vitest";
import { API_CONTENT_SECURITY_POLICY, docsContentSecurityPolicy, SECURITY_HEADERS } from "../../src/index.ts";
import { describeResponse } from "./http-asserts.ts";

/**
 * Which content-security-policy a response carries: the API's (every response but /docs), the /docs page's, or
 * none checked (an answer at /docs that is not the page, e.g. its 405, of which the contract says neither).
 */
export type PolicyOf = "api" | "docs" | "unchecked";

export function expectedSecurityHeaders(policy: PolicyOf): Record<string, string> {
  if (policy === "unchecked") return { ...SECURITY_HEADERS };
  const csp = policy === "api" ? API_CONTENT_SECURITY_POLICY : docsContentSecurityPolicy();
  return { ...SECURITY_HEADERS, "content-security-policy": csp };
}

/** `x-content-type-options`, `x-frame-options` and, unless unchecked, `content-security-policy`, exactly. */
/** A policy as its directives, each with its whitespace normalised, sorted by name (their order has no meaning). */
export const directivesOf = (policy: string | undefined) =>
  policy
    ?.split(";")
    .map((directive) => directive.trim().replace(/\s+/g, " "))
    .filter(Boolean)
    .sort();

/** `x-content-type-options`, `x-frame-options` exactly and, unless unchecked, `content-security-policy`'s directives. */
export function expectSecurityHeaders(res: Response, policy: PolicyOf = "api") {
  const expected = expectedSecurityHeaders(policy);
  const comparable = (headers: Record<string, string | undefined>) =>
    Object.fromEntries(
      Object.keys(expected).map((name) => {
        const value = headers[name];
        return [name, name === "content-security-policy" ? directivesOf(value) : value];
      }),
    );
  // The body of /docs is 4 MB of HTML: name the request and its status, not the page.
  const context = policy === "docs" ? describeResponse(res).slice(0, 200) : describeResponse(res);
  expect(comparable(res.headers as Record<string, string | undefined>), context).toEqual(comparable(expected));
}
