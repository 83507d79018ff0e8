import type { IncomingMessage, ServerResponse } from "node:http";
import { API_CONTENT_SECURITY_POLICY } from "@api-ref/contract";
import fastifyHelmet from "@fastify/helmet";
import type { NestExpressApplication } from "@nestjs/platform-express";
import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import type { NextFunction, Request, Response } from "express";
import helmet, { type HelmetOptions } from "helmet";

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

/**
 * The security headers on every response, errors, 404s and 405s included (Nest's "Security → Helmet"), on Express:
 * used before Nest registers its middleware and routes (at init), so they run first.
 */
export function useSecurityHeadersOnExpress(app: NestExpressApplication) {
  app.use(helmet(HELMET_OPTIONS));
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader("content-security-policy", API_CONTENT_SECURITY_POLICY);
    next();
  });
}

/**
 * The same on Fastify: @fastify/helmet's `onRequest` hooks, registered before the platform's other hooks, which may
 * answer (a not-found) without running the hooks after them.
 */
export async function useSecurityHeadersOnFastify(app: NestFastifyApplication) {
  await app.register(fastifyHelmet, HELMET_OPTIONS);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook("onRequest", (_request, reply, done) => {
      reply.header("content-security-policy", API_CONTENT_SECURITY_POLICY);
      done();
    });
}

const helmetHeaders = helmet(HELMET_OPTIONS);

/** The same headers on an answer no hook sees (Fastify's router errors, `strict-paths.ts`), from helmet itself. */
export function setSecurityHeaders(request: IncomingMessage, response: ServerResponse) {
  helmetHeaders(request, response, () => {});
  response.setHeader("content-security-policy", API_CONTENT_SECURITY_POLICY);
}
