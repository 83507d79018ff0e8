import { API_CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from "@api-ref/contract";
import { Elysia } from "elysia";

/**
 * The security headers of every response: `x-content-type-options`, `x-frame-options` and the API's
 * content-security-policy (a route with a page of its own, /docs, sets its policy in its handler). Elysia has no
 * official helmet (the community's elysia-helmet sends `cross-origin-resource-policy: ?1` for its Origin-Agent-Cluster
 * header, and builds every header again on each request); `onRequest` runs before routing, and what it puts in
 * `set.headers` goes out with whatever answers: errors, 404s and 405s included.
 */
export const securityHeaders = new Elysia({ name: "security-headers" }).onRequest(({ set }) => {
  Object.assign(set.headers, SECURITY_HEADERS, { "content-security-policy": API_CONTENT_SECURITY_POLICY });
});
