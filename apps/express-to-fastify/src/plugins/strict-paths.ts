// The contract's paths are strict: `/products/` is not `/products/:id` with an empty id, it is another path (404).
// find-my-way matches a parameter of zero characters, so native parametric routes get an onRequest hook that
// hands such a request to the not-found handler. (Express's routers are strict on their own: `strict: true`.)
import type { onRequestHookHandler } from "fastify";
import fp from "fastify-plugin";

const emptyParameterIsNotFound: onRequestHookHandler = (request, reply, done) => {
  for (const value of Object.values(request.params as Record<string, string>)) {
    if (value === "") return reply.callNotFound();
  }
  done();
};

export default fp(
  async (fastify) => {
    fastify.addHook("onRoute", (route) => {
      if (!route.url.includes("/:")) return;
      const existing = route.onRequest ?? [];
      route.onRequest = [emptyParameterIsNotFound, ...(Array.isArray(existing) ? existing : [existing])];
    });
  },
  { name: "strict-paths" },
);
