import type { IncomingHttpHeaders } from "node:http";
import type { Principal } from "@api-ref/data-access";

/**
 * What the guards read and write on the platform's request: Express's `req` and Fastify's `FastifyRequest` both
 * carry Node's `headers`, and `AuthGuard` sets `user` on whichever it is, the object every later step receives.
 */
export interface AuthenticatedRequest {
  headers: IncomingHttpHeaders;
  user?: Principal;
}
