import type { DataAccess, Principal } from "@api-ref/data-access";
import type { Plugin, Request } from "@hapi/hapi";

declare module "@hapi/hapi" {
  /** What the `bearer` scheme puts in `request.auth.credentials.user`: the data access's principal. */
  interface UserCredentials extends Principal {}
}

/**
 * Hapi's own authentication: a `bearer` scheme whose `authenticate` asks the data access who the token belongs to (a
 * 401 with its `www-authenticate` challenge when nobody, thrown as is and rendered by the problem handler), one
 * strategy of it, and that strategy as every route's default. The caller's role is the credentials' `scope`, so an
 * admin route says `auth: { access: { scope: "admin" } }` and Hapi answers the others 403; public routes say `auth:
 * false`.
 */
export const authPlugin: Plugin<{ dataAccess: DataAccess }> = {
  name: "auth",
  register(server, { dataAccess: { auth } }) {
    server.auth.scheme("bearer", () => ({
      async authenticate(request, h) {
        const principal = await auth.authenticate(request.raw.req.headers.authorization);
        return h.authenticated({ credentials: { user: principal, scope: [principal.role] } });
      },
    }));
    server.auth.strategy("bearer", "bearer");
    server.auth.default("bearer");
  },
};

/** The caller of a route with auth, as the `bearer` scheme authenticated them. */
export function principal({ auth }: Pick<Request, "auth">): Principal {
  const user = auth.credentials?.user;
  if (!user) throw new Error("principal() on a route without auth: nobody is authenticated there");
  return user;
}
