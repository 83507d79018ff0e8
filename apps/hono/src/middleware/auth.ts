import { requireAdmin as adminOnly, type DataAccess } from "@api-ref/data-access";
import { createMiddleware } from "hono/factory";
import type { AuthEnv } from "../env.ts";

/**
 * Who is calling: the data access verifies the bearer token and reads the user's current role, or throws the 401 with
 * its `www-authenticate` challenge; the caller is `c.var.user` for what follows. Listed on each route before `jsonBody`
 * and the validators, so that a caller who may not call a route learns nothing about its body (the contract's order:
 * 401, 403, then 415, 413, 400). Not `hono/jwt`: the role is read from the database on every request.
 */
export const authenticate = ({ auth }: DataAccess) =>
  createMiddleware<AuthEnv>(async (c, next) => {
    c.set("user", await auth.authenticate(c.req.header("authorization")));
    await next();
  });

/** After `authenticate` on the admin routes: a customer is a 403 (the data access's `requireAdmin`). */
export const requireAdmin = createMiddleware<AuthEnv>(async (c, next) => {
  adminOnly(c.var.user);
  await next();
});
