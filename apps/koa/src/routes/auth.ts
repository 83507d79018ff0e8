import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { authenticate } from "../middleware/auth.ts";
import { methodNotAllowed } from "../middleware/errors.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { authRateLimit } from "../middleware/rate-limit.ts";
import { validate } from "../middleware/validate.ts";
import { strictRouter } from "./router.ts";

/** `limit`: requests per client address and window to each of register and login (`config.authRateLimit`). */
export function authRoutes(dataAccess: DataAccess, limit: number) {
  const { auth } = dataAccess;
  const router = strictRouter();

  // Register and login each have a limiter of their own (counted apart), listed before `jsonBody`: past the limit,
  // the 429 comes before anything about the request is read. Tokens and the caller's own user are never to be
  // cached (RFC 6749 §5.1); set after the data access answered, so that a problem does not carry it.
  router
    .post("/auth/register", authRateLimit(limit), jsonBody, validate({ body: contract.RegisterBody }), async (ctx) => {
      ctx.body = await auth.register(ctx.state.body);
      ctx.status = 201;
      ctx.set("cache-control", "no-store");
    })
    .all("/auth/register", methodNotAllowed("/auth/register"));

  router
    .post("/auth/login", authRateLimit(limit), jsonBody, validate({ body: contract.LoginBody }), async (ctx) => {
      ctx.body = await auth.login(ctx.state.body);
      ctx.set("cache-control", "no-store");
    })
    .all("/auth/login", methodNotAllowed("/auth/login"));

  router
    .get("/auth/me", authenticate(dataAccess), async (ctx) => {
      ctx.body = await auth.me(ctx.state.user);
      ctx.set("cache-control", "no-store");
    })
    .all("/auth/me", methodNotAllowed("/auth/me"));

  return router;
}
