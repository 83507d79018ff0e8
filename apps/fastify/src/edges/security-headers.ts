// The security headers of every response, through @fastify/helmet (as fastify/demo's plugins/external/helmet.ts):
// global, in `onRequest` hooks that run before any route or the not-found handler can answer, so 404s, 405s and
// every problem carry them too. Helmet's defaults, but X-Frame-Options `DENY` (its default is `SAMEORIGIN`) and the
// contract's content-security policy instead of helmet's, which is a web page's.
import { API_CONTENT_SECURITY_POLICY } from "@api-ref/contract";
import fastifyHelmet from "@fastify/helmet";
import fp from "fastify-plugin";

export default fp(
  async (fastify) => {
    await fastify.register(fastifyHelmet, { contentSecurityPolicy: false, xFrameOptions: { action: "deny" } });
    // The contract's policy as its exact string: helmet writes directives joined by `;`, the contract by `; `, and
    // the header is compared byte for byte. /docs replaces it with its page's own (routes/meta.ts).
    fastify.addHook("onRequest", (_request, reply, done) => {
      reply.header("content-security-policy", API_CONTENT_SECURITY_POLICY);
      done();
    });
  },
  { name: "security-headers" },
);
