// @fastify/rate-limit (fastify/demo's plugins/external/rate-limit.ts), off by default (`global: false`): a route opts
// in with `config.rateLimit` (register and login, routes/auth.ts), which gets a store of its own, so that each
// route is counted apart. Its hook runs in the route's `onRequest`, after routing (a 404 or 405 is never counted)
// and before the body is read: past the limit, the 429 comes before any 415, 413 or 400. Each request is keyed by
// `request.ip`, the socket's address (`trustProxy` is off: no forwarding header is believed; IPv6 addresses count
// by their /64, the library's default, since one client holds a whole /64).
import { problem } from "@api-ref/contract";
import fastifyRateLimit from "@fastify/rate-limit";
import fp from "fastify-plugin";

export default fp(
  async (fastify) => {
    await fastify.register(fastifyRateLimit, {
      global: false,
      // The contract's 429, thrown to the error handler like every other problem. The plugin has already put
      // `retry-after` on the reply: Math.ceil(ttl / 1000), the whole seconds until the fixed window ends, at least 1
      // (ttl > 0 while the window lasts); the error handler keeps headers set before the error.
      errorResponseBuilder: (request, { ttl }) =>
        problem(
          "tooManyRequests",
          `Too many requests to ${request.method} ${request.routeOptions.url} from this address; retry in ${Math.ceil(ttl / 1000)} s.`,
        ),
    });
  },
  { name: "rate-limit" },
);
