import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { methodNotAllowed } from "../middleware/errors.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { validate } from "../middleware/validate.ts";
import { strictRouter } from "./router.ts";

export function authRoutes({ auth }: DataAccess) {
  const router = strictRouter();

  router
    .post("/auth/register", jsonBody, validate({ body: contract.RegisterBody }), async (ctx) => {
      ctx.status = 201;
      ctx.body = await auth.register(ctx.state.body);
    })
    .all("/auth/register", methodNotAllowed("/auth/register"));

  router
    .post("/auth/login", jsonBody, validate({ body: contract.LoginBody }), async (ctx) => {
      ctx.body = await auth.login(ctx.state.body);
    })
    .all("/auth/login", methodNotAllowed("/auth/login"));

  router
    .get("/auth/me", async (ctx) => {
      ctx.body = await auth.me(ctx.get("authorization") || undefined);
    })
    .all("/auth/me", methodNotAllowed("/auth/me"));

  return router;
}
