// The Fastify platform: Nest's adapter with the contract's server limits, strict paths, query parser, unread bodies
// and security headers.
import querystring from "node:querystring";
import { HTTP_LIMITS, httpServerOptions } from "@api-ref/server";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import { leaveBodiesUnreadOnFastify } from "../edges/json-body.interceptor.ts";
import { useSecurityHeadersOnFastify } from "../edges/security-headers.ts";
import { answerRouterError, matchLiteralPathsOnFastify, STRICT_FASTIFY_ROUTER } from "../edges/strict-paths.ts";

/**
 * Nest's Fastify platform as the contract wants it: `adapter()` for `NestFactory.create()` (or a testing module's
 * `createNestApplication()`), then `configure(app)` on the application it made.
 */
export const fastifyPlatform = {
  adapter: () =>
    new FastifyAdapter({
      routerOptions: {
        ...STRICT_FASTIFY_ROUTER,
        // The query parser of Express's `simple` mode, so both platforms read `?a=1&a=2`, `+` and `%` alike.
        querystringParser: (search) => querystring.parse(search.split("#", 1)[0] ?? ""),
      },
      frameworkErrors: answerRouterError,
      // The contract's limits (@api-ref/server's limits.ts): node:http's options, and the two Fastify sets on the
      // server itself after creating it (its keep-alive default is 72 s).
      http: httpServerOptions,
      keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
      requestTimeout: HTTP_LIMITS.requestTimeoutMs,
    }),

  async configure<App extends NestFastifyApplication>(app: App): Promise<App> {
    // In this order: the security headers' hooks first, since the strict paths' hook may answer (a not-found) without
    // running the hooks after it.
    await useSecurityHeadersOnFastify(app);
    leaveBodiesUnreadOnFastify(app);
    matchLiteralPathsOnFastify(app);
    return app;
  },
};
