// The contract's paths are strict: `/users/` is not `/users/:id` with an empty id, it is another path (404).
// find-my-way matches a parameter of zero characters (a fix is planned for Fastify 6), so parametric routes get
// an onRequest hook that hands such a request to the not-found handler before anything else happens.
import { isContractPath } from "@api-ref/contract";
import type { onRequestHookHandler } from "fastify";
import fp from "fastify-plugin";

const emptyParameterIsNotFound: onRequestHookHandler = (request, reply, done) => {
  for (const value of Object.values(request.params as Record<string, string>)) {
    if (value === "") return reply.callNotFound();
  }
  done();
};

/**
 * find-my-way decodes a path before matching it, so `/%75sers` would be `/users`; the contract matches a route's
 * literal segments only as spelled (README "Edges of HTTP" in packages/contract): a path that is no contract path
 * as sent goes to the not-found handler (404), whatever the router found.
 */
const undecodedPathOrNotFound: onRequestHookHandler = (request, reply, done) => {
  if (request.is404 || isContractPath(request.url)) return done();
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
