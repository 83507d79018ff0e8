// One application, two HTTP platforms. Everything platform-specific is here: the adapter, its settings for the
// contract's strict paths, and turning each platform's body parsing off (the JSON body is read by
// `JsonBodyInterceptor`, after routing, on the routes that take one).
import { createServer } from "node:http";
import querystring from "node:querystring";
import { isContractPath, problem, undecodable } from "@api-ref/contract";
import { type AppConfig, HTTP_LIMITS, httpServerOptions, requestIdFrom } from "@api-ref/core";
import type { INestApplication, LogLevel, NestApplicationOptions } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { ExpressAdapter, type NestExpressApplication } from "@nestjs/platform-express";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import express from "express";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { AppModule } from "./app.module.ts";
import { PROBLEM_CONTENT_TYPE_UTF8 } from "./common/problem.filter.ts";
import type { Platform } from "./config.ts";

const LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "log", "debug", "verbose"];
const NEST_LEVEL: Record<string, LogLevel> = {
  fatal: "fatal",
  error: "error",
  warn: "warn",
  info: "log",
  debug: "debug",
  trace: "verbose",
};

/** `LOG_LEVEL` (pino's names, as every app reads it) as Nest's logger levels; `silent` turns logging off. */
export function nestLogLevels(logLevel: string): LogLevel[] | false {
  const level = NEST_LEVEL[logLevel];
  return level ? LEVELS.slice(0, LEVELS.indexOf(level) + 1) : false;
}

/**
 * Fastify's router answers a path it cannot decode (`/users/%zz`) before any hook runs, so before Nest, with a
 * body of its own: it gets the contract's answer here instead, as the exception filter gives it on Express.
 */
function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { problem: answer } =
    error.code === "FST_ERR_BAD_URL"
      ? undecodable(request.method, request.url)
      : { problem: problem("internal", "An unexpected error occurred.") };
  reply
    .code(answer.status)
    .headers({ ...answer.headers, "x-request-id": requestIdFrom(request.headers["x-request-id"]) })
    .type(PROBLEM_CONTENT_TYPE_UTF8)
    .send(JSON.stringify(answer.toJSON()));
}

/**
 * The Express platform's server is `http.createServer(app)` with Node's defaults; this one states the contract's
 * limits (head size, time for the head and for the whole request, keep-alive; @api-ref/core's limits.ts).
 */
class LimitedExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions) {
    super.initHttpServer(options);
    this.httpServer = createServer(httpServerOptions, this.getInstance());
  }
}

export async function createApp(config: AppConfig, platform: Platform): Promise<INestApplication> {
  const module = AppModule.forRoot(config, platform);
  // Nest's body parsers would read every body before routing (a 400 for bad JSON where the contract wants a
  // 405) and on routes that take none; off on both platforms.
  const options = { bodyParser: false, logger: nestLogLevels(config.logLevel) };

  if (platform === "fastify") {
    const adapter = new FastifyAdapter({
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
    });
    const app = await NestFactory.create<NestFastifyApplication>(module, adapter, options);
    // Fastify parses a body before the handler on every route (DELETE included) and would answer 415 itself;
    // every content type is passed through unread instead.
    const fastify = app.getHttpAdapter().getInstance();
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
    // find-my-way decodes a path before matching it (`/%75sers` would be `/users`); the contract matches literal
    // segments only as spelled (README "Edges of HTTP" in packages/contract), as Express's router does.
    fastify.addHook("onRequest", (request, reply, done) => {
      if (request.is404 || isContractPath(request.url)) return done();
      reply.callNotFound();
    });
    return app;
  }

  // Strict paths, as the contract says: `/Users` and `/users/` are other paths (404). Express reads these two
  // settings when it creates its router, which the adapter does at once: they go on an instance made first.
  const server = express();
  server.set("case sensitive routing", true);
  server.set("strict routing", true);
  const app = await NestFactory.create<NestExpressApplication>(module, new LimitedExpressAdapter(server), options);
  app.disable("x-powered-by");
  // No ETags (no other framework here computes them), and the `simple` query parser (`?a[b]=1` stays a key).
  app.set("etag", false);
  app.set("query parser", "simple");
  return app;
}
