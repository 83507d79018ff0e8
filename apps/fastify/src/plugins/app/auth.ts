// Who is calling, @fastify/jwt's way: `request.user` is decorated once, and two instance decorators are the hooks a
// route lists in its `onRequest` (`[fastify.authenticate]`, or `[fastify.authenticate, fastify.requireAdmin]` for an
// admin route). `onRequest` runs before the body is read, parsed or validated, so a 401 or 403 comes first, as the
// contract orders it (a customer's malformed body on an admin route is a 403, not a 400).
import { type Principal, requireAdmin } from "@api-ref/data-access";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

/** An `onRequest` hook; throws the contract's ProblemError (401 or 403, `www-authenticate` included). */
export type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module "fastify" {
  interface FastifyRequest {
    /** The caller, set by `fastify.authenticate`; `null` on a route without that hook (read it with `callerOf`). */
    user: Principal | null;
  }
  interface FastifyInstance {
    /** 401 unless the request carries a valid bearer token of an existing user; sets `request.user`. */
    authenticate: AuthHook;
    /** 403 unless `request.user` is an admin; list it after `authenticate`. */
    requireAdmin: AuthHook;
  }
}

/**
 * `request.user` on a route whose `onRequest` lists `fastify.authenticate`, where it is never null: a handler that
 * reads it without the hook is a bug, and fails loudly (a 500) rather than acting for nobody.
 */
export function callerOf(request: FastifyRequest): Principal {
  if (request.user === null) throw new Error(`${request.routeOptions.url} has no fastify.authenticate hook`);
  return request.user;
}

export default fp(
  async (fastify) => {
    const { auth } = fastify.dataAccess;
    // Declared up front so that every request has one shape (Fastify's advice); null until the hook runs.
    fastify.decorateRequest("user", null);
    fastify.decorate("authenticate", async (request: FastifyRequest) => {
      // The data access verifies the token and reads the user's current role: a deleted user's token is a 401 here.
      request.user = await auth.authenticate(request.headers.authorization);
    });
    fastify.decorate("requireAdmin", async (request: FastifyRequest) => requireAdmin(callerOf(request)));
  },
  { name: "auth", dependencies: ["data-access"] },
);
