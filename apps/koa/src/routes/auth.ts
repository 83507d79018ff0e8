import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import Router from "@koa/router";
import { jsonBody } from "../edges/json-body.ts";
import { authenticate } from "../middleware/auth.ts";
import { authRateLimit } from "../middleware/rate-limit.ts";
import { validate } from "../middleware/validate.ts";

/** `limit`: requests per client address and window to each of register and login (`config.authRateLimit`). */
export function authRoutes(dataAccess: DataAccess, limit: number) {
  const { auth } = dataAccess;
  const router = new Router({ sensitive: true });

  // Register and login each have a limiter of their own (counted apart), listed before `jsonBody`: past the limit,
  // the 429 comes before anything about the request is read. Tokens and the caller's own user are never to be
  // cached (RFC 6749 §5.1); set after the data access answered, so that a problem does not carry it.
  router.post("/register", authRateLimit(limit), jsonBody, validate({ body: contract.RegisterBody }), async (ctx) => {
    ctx.body = await auth.register(ctx.state.body);
    ctx.status = 201;
    ctx.set("cache-control", "no-store");
  });

  router.post("/login", authRateLimit(limit), jsonBody, validate({ body: contract.LoginBody }), async (ctx) => {
    ctx.body = await auth.login(ctx.state.body);
    ctx.set("cache-control", "no-store");
  });

  router.get("/me", authenticate(dataAccess), async (ctx) => {
    ctx.body = await auth.me(ctx.state.user);
    ctx.set("cache-control", "no-store");
  });

  return router;
}
