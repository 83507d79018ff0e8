// The Fastify platform: Nest's adapter with the contract's strict paths, limits and query parser, and Fastify's
// own body parsing and path decoding turned off where the contract wants otherwise.
import querystring from "node:querystring";
import { API_CONTENT_SECURITY_POLICY, isContractPath, problem, undecodable } from "@api-ref/contract";
import { HTTP_LIMITS, httpServerOptions, requestIdFrom } from "@api-ref/core";
import fastifyHelmet from "@fastify/helmet";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import helmet from "helmet";
import { PROBLEM_CONTENT_TYPE_UTF8 } from "../common/problem.filter.ts";
import { HELMET_OPTIONS } from "../common/security-headers.ts";

/** helmet itself, for the one answer no hook sees (below); every other answer gets @fastify/helmet's. */
const helmetHeaders = helmet(HELMET_OPTIONS);

/**
 * Fastify's router answers a path it cannot decode (`/users/%zz`) before any hook runs, so before Nest, with a
 * body of its own: it gets the contract's answer here instead, as the exception filter gives it on Express.
 */
function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { problem: answer } =
    error.code === "FST_ERR_BAD_URL"
      ? undecodable(request.method, request.url)
      : { problem: problem("internal", "An unexpected error occurred.") };
  // No hook runs for it, @fastify/helmet's neither: the same headers, from helmet itself.
  helmetHeaders(request.raw, reply.raw, () => {});
  reply
    .header("content-security-policy", API_CONTENT_SECURITY_POLICY)
    .code(answer.status)
    .headers({ ...answer.headers, "x-request-id": requestIdFrom(request.headers["x-request-id"]) })
    .type(PROBLEM_CONTENT_TYPE_UTF8)
    .send(JSON.stringify(answer.toJSON()));
}

/**
 * Nest's Fastify platform as the contract wants it: `adapter()` for `NestFactory.create()` (or a testing module's
 * `createNestApplication()`), then `configure(app)` on the application it made.
 */
export const fastifyPlatform = {
  adapter: () =>
    new FastifyAdapter({
      routerOptions: {
        // The contract's strict paths are Fastify's defaults, stated for the reader.
        caseSensitive: true,
        ignoreTrailingSlash: false,
        // A path parameter may be as long as the URL (Fastify answers 414 past 100 characters, where the
        // contract wants the 400 of an invalid id).
        maxParamLength: 16 * 1024,
        // The query parser of Express's `simple` mode, so both platforms read `?a=1&a=2`, `+` and `%` alike.
        querystringParser: (search) => querystring.parse(search.split("#", 1)[0] ?? ""),
      },
      frameworkErrors: answerRouterError,
      // The contract's limits (@api-ref/core's limits.ts): node:http's options, and the two Fastify sets on the
      // server itself after creating it (its keep-alive default is 72 s).
      http: httpServerOptions,
      keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
      requestTimeout: HTTP_LIMITS.requestTimeoutMs,
    }),

  async configure<App extends NestFastifyApplication>(app: App): Promise<App> {
    // The security headers on every response, errors, 404s and 405s included (Nest's "Security → Helmet"):
    // @fastify/helmet's `onRequest` hooks, registered before the hooks below, which may answer (a not-found) without
    // running the hooks after them. The /docs handler replaces the content-security policy with its page's.
    await app.register(fastifyHelmet, HELMET_OPTIONS);
    const fastify = app.getHttpAdapter().getInstance();
    fastify.addHook("onRequest", (_request, reply, done) => {
      reply.header("content-security-policy", API_CONTENT_SECURITY_POLICY);
      done();
    });
    // Fastify parses a body before the handler on every route (DELETE included) and would answer 415 itself;
    // every content type is passed through unread instead.
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
    // A DELETE reads no body and ignores whatever it is sent (README "Edges of HTTP" in packages/contract), but
    // Fastify judges its `content-type` before any parser runs (`application/json, text/plain` would be its 415):
    // the header means nothing there and is dropped.
    fastify.addHook("onRequest", (request, _reply, done) => {
      if (request.method === "DELETE") delete request.raw.headers["content-type"];
      done();
    });
    // find-my-way decodes a path before matching it (`/%75sers` would be `/users`); the contract matches literal
    // segments only as spelled (README "Edges of HTTP" in packages/contract), as Express's router does.
    fastify.addHook("onRequest", (request, reply, done) => {
      if (request.is404 || isContractPath(request.url)) return done();
      reply.callNotFound();
    });
    return app;
  },
};
