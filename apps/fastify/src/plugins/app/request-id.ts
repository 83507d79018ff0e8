// Every response, errors included, carries `x-request-id`: `request.id`, which `genReqId` (see app.ts) took from
// the client's header when it is valid, and generated otherwise.
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
