// The headers every response carries against browsers misreading or framing an API's answers (OWASP's REST Security
// Cheat Sheet, "Security headers"), and the content-security policy of the one HTML page, /docs. Each app sends them
// through its framework's helmet-like library where that is the idiom, configured with these values.
import { createHash } from "node:crypto";
import { docsHtml } from "./openapi.ts";

/** On every response, /docs included. */
export const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
} as const;

/** On every response but /docs: an API's JSON loads nothing and is framed by nothing. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

let docsPolicy: string | undefined;

/** /docs's policy, made once from the page docsHtml() serves (hashing its 4 MB script takes a few milliseconds). */
export function docsContentSecurityPolicy(): string {
  docsPolicy ??= contentSecurityPolicyOf(docsHtml());
  return docsPolicy;
}

/**
 * A page's policy: its inline scripts by their SHA-256 (Scalar's bundle and the call that starts it), the styles
 * Scalar injects at run time, images and fonts from itself or data: URLs, fetches to its own origin (/openapi.json);
 * nothing from elsewhere, no framing.
 */
export function contentSecurityPolicyOf(page: string): string {
  const hashes = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${createHash("sha256")
        .update(body ?? "")
        .digest("base64")}'`,
  );
  return [
    "default-src 'none'",
    `script-src ${hashes.join(" ")}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
