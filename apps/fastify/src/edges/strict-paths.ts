// The contract's paths are strict and matched as sent: 404 for any other path, 405 with `allow` for a method a
// path does not serve, 400 on a path parameter that is not valid percent-encoding. Route plugins list only the
// methods they serve; everything else about paths is here.
import {
  API_CONTENT_SECURITY_POLICY,
  isContractPath,
  methodNotAllowedProblem,
  methodsByPath,
  SECURITY_HEADERS,
  undecodable,
  unmatched,
} from "@api-ref/contract";
import type { FastifyError, FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import fp from "fastify-plugin";
import { sendProblem } from "./problems.ts";

/**
 * `/users/` is not `/users/:id` with an empty id, it is another path (404). find-my-way matches a parameter of zero
 * characters (a fix is planned for Fastify 6), so parametric routes get an onRequest hook that hands such a request
 * to the not-found handler before anything else happens.
 */
const emptyParameterIsNotFound: onRequestHookHandler = (request, reply, done) => {
  for (const value of Object.values(request.params as Record<string, string>)) {
    if (value === "") return reply.callNotFound();
  }
  done();
};

/**
 * find-my-way decodes a path before matching it, so `/%75sers` would be `/users`; the contract matches a route's
 * literal segments only as spelled (README "Edges of HTTP" in packages/contract): a path that is no contract path
 * as sent goes to the not-found handler (404), whatever the router found. A prefixed `/` route is also registered
 * with a trailing slash (`/users/`): that one is no contract path either.
 */
const undecodedPathOrNotFound: onRequestHookHandler = (request, reply, done) => {
  if (isContractPath(request.url)) return done();
  // No route at all: answered here, before any later hook reads the request (express-to-fastify's Express routers).
  if (request.is404) return notFoundHandler(request, reply);
  reply.callNotFound();
};

export default fp(
  async (fastify) => {
    fastify.addHook("onRequest", undecodedPathOrNotFound);
    fastify.addHook("onRoute", (route) => {
      if (!route.url.includes("/:")) return;
      const existing = route.onRequest ?? [];
      route.onRequest = [emptyParameterIsNotFound, ...(Array.isArray(existing) ? existing : [existing])];
    });
  },
  { name: "strict-paths" },
);

/**
 * Registered after the route plugins: every other method Fastify routes, on each contract path served so far, gets
 * the 405 with `allow`. It answers in `onRequest`, before Fastify would read (and judge) a body: the method is
 * checked first. (A path served elsewhere, like express-to-fastify's Express routers, is left to them.)
 */
export const methodNotAllowed = fp(
  async (fastify) => {
    for (const [path, served] of methodsByPath) {
      if (!served.some((method) => method !== "HEAD" && fastify.hasRoute({ method, url: path }))) continue;
      const refuse: onRequestHookHandler = async (request) => {
        throw methodNotAllowedProblem(request.method, path);
      };
      fastify.route({
        method: fastify.supportedMethods.filter((m) => !served.includes(m)),
        url: path,
        onRequest: refuse,
        handler: async () => {},
      });
    }
  },
  { name: "method-not-allowed" },
);

/** 404, or 405 for a known path when the method is one Fastify does not route at all (e.g. PROPFIND). */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return sendProblem(reply, unmatched(request.method, request.url).problem);
}

/**
 * `frameworkErrors`: a path that is not valid percent-encoding (`/users/%zz`) fails in the router, before any
 * route or hook; the contract's route table decides (405, 400 on the parameter, or 404).
 */
export function badUrlHandler(_error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No hook runs here: the request id and the security headers (edges/security-headers.ts) are set by hand.
  reply.header("x-request-id", request.id);
  reply.headers({ ...SECURITY_HEADERS, "content-security-policy": API_CONTENT_SECURITY_POLICY });
  return sendProblem(reply, undecodable(request.method, request.url).problem);
}
