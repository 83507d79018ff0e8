// The contract's strict paths on each platform: `/Users` and `/users/` are other paths than `/users` (404), literal
// segments match only as spelled, and an undecodable path is the contract's answer. The 404s and 405s of paths no
// route matched are the problems filter's (`problems.filter.ts`).
import { isContractPath, problem, undecodable } from "@api-ref/contract";
import { requestIdFrom } from "@api-ref/server";
import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import express from "express";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { PROBLEM_CONTENT_TYPE_UTF8 } from "./problems.filter.ts";
import { setSecurityHeaders } from "./security-headers.ts";

/**
 * An Express instance with strict, case-sensitive routing. Express reads these two settings when it creates its
 * router, which Nest's adapter does at once: they go on an instance made first, handed to the adapter.
 */
export function strictExpress() {
  const server = express();
  server.set("case sensitive routing", true);
  server.set("strict routing", true);
  return server;
}

/** Fastify's router options for the contract's paths. */
export const STRICT_FASTIFY_ROUTER = {
  // Fastify's defaults, stated for the reader.
  caseSensitive: true,
  ignoreTrailingSlash: false,
  // A path parameter may be as long as the URL (Fastify answers 414 past 100 characters, where the contract wants
  // the 400 of an invalid id).
  maxParamLength: 16 * 1024,
} as const;

/**
 * Fastify's router answers a path it cannot decode (`/users/%zz`) before any hook runs, so before Nest, with a
 * body of its own (the adapter's `frameworkErrors`): it gets the contract's answer here instead, as the exception
 * filter gives it on Express.
 */
export function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { problem: answer } =
    error.code === "FST_ERR_BAD_URL"
      ? undecodable(request.method, request.url)
      : { problem: problem("internal", "An unexpected error occurred.") };
  // No hook runs for it, @fastify/helmet's neither.
  setSecurityHeaders(request.raw, reply.raw);
  reply
    .code(answer.status)
    .headers({ ...answer.headers, "x-request-id": requestIdFrom(request.headers["x-request-id"]) })
    .type(PROBLEM_CONTENT_TYPE_UTF8)
    .send(JSON.stringify(answer.toJSON()));
}

/**
 * find-my-way decodes a path before matching it (`/%75sers` would be `/users`); the contract matches literal
 * segments only as spelled (README "Edges of HTTP" in packages/contract), as Express's router does.
 */
export function matchLiteralPathsOnFastify(app: NestFastifyApplication) {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook("onRequest", (request, reply, done) => {
      if (request.is404 || isContractPath(request.url)) return done();
      reply.callNotFound();
    });
}
