// Every response, errors included, carries `x-request-id`: `request.id`, which `genReqId` (see app.ts) took from
// the client's header when it is valid, and generated otherwise. One id per request for both worlds: this hook runs
// before @fastify/express, which copies the reply's headers onto the raw response before Express sees it, and
// hands Express the same id as `req.id` (and Fastify's request logger as `req.log`). Express's own `requestId`
// middleware is not mounted: it would mint a second UUID for a request whose header is invalid.
import fp from "fastify-plugin";

export default fp(
  async (fastify) => {
    fastify.addHook("onRequest", (request, reply, done) => {
      reply.header("x-request-id", request.id);
      done();
    });
  },
  { name: "request-id" },
);
