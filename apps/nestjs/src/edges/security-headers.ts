import type { HelmetOptions } from "helmet";

/**
 * The options each platform's helmet gets (`helmet` on Express, `@fastify/helmet` on Fastify): helmet's defaults,
 * with `x-frame-options: DENY` instead of its `SAMEORIGIN`, and no content-security policy of helmet's (a web
 * page's). The contract's policy is set beside it as its exact string: helmet joins directives with `;`, where the
 * contract has `; ` (API_CONTENT_SECURITY_POLICY). The /docs handler replaces it with its page's own.
 */
export const HELMET_OPTIONS = {
  contentSecurityPolicy: false,
  xFrameOptions: { action: "deny" },
} as const satisfies HelmetOptions;
