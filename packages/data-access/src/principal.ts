// Who is calling, and the refusals that follow from it: written once for every Node app, whose own mechanism (a
// guard, a hook, a middleware, a strategy) calls these.
import { problem, type Role } from "@api-ref/contract";

/** Who is calling: the token's user, as the database knows them now (a deleted user or a changed role counts). */
export interface Principal {
  id: string;
  role: Role;
}

/**
 * A 401 with its RFC 6750 §3 challenge: plain `Bearer` when the request carried no bearer token, `Bearer
 * error="invalid_token"` when the token it carried was refused.
 */
export function unauthorized(detail: string, challenge: "missing" | "invalid_token" = "invalid_token") {
  const header = challenge === "missing" ? "Bearer" : 'Bearer error="invalid_token"';
  return problem("unauthorized", detail, { headers: { "www-authenticate": header } });
}

/** A 403: the caller is known, and their role may not do this (RFC 6750's `insufficient_scope`). */
export const forbidden = (detail = "This needs the admin role.") =>
  problem("forbidden", detail, { headers: { "www-authenticate": 'Bearer error="insufficient_scope"' } });

/** The role check every framework's own mechanism calls (a guard, a hook, a dependency): admins pass, others 403. */
export function requireAdmin(principal: Principal): void {
  if (principal.role !== "admin") throw forbidden();
}
