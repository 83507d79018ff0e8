import type { Access } from "@api-ref/contract";
import { type DataAccess, type Principal, requireAdmin } from "@api-ref/data-access";
import { Elysia } from "elysia";

/**
 * Who may call a route, as an Elysia macro given to a group of routes: `.group("", { auth: "admin" }, (app) => …)`
 * (public routes have none). Its `transform` asks the data access who the token belongs to (a 401 with its
 * `www-authenticate` challenge, else the principal) and, for `admin`, checks the role (a 403); its `resolve` hands the
 * handler `principal`, typed.
 */
export const authorization = ({ auth }: Pick<DataAccess, "auth">) => {
  // One lookup per request: `transform` asks, `resolve` hands the same principal over.
  const callers = new WeakMap<Request, Promise<Principal>>();
  const caller = (request: Request) => {
    let principal = callers.get(request);
    if (!principal) {
      principal = auth.authenticate(request.headers.get("authorization") ?? undefined);
      callers.set(request, principal);
    }
    return principal;
  };
  return new Elysia({ name: "authorization" }).macro({
    auth: (access: Exclude<Access, "public">) => ({
      // `transform`, the last step before validation; a group's hooks run before the route's own, the `json` body read
      // among them, so 401 and 403 come first (`guard(hook, run)` would append the macro's hooks after the route's).
      async transform({ request }) {
        const principal = await caller(request);
        if (access === "admin") requireAdmin(principal);
      },
      resolve: async ({ request }) => ({ principal: await caller(request) }),
    }),
  });
};
