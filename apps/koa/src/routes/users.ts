import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import Router from "@koa/router";
import { jsonBody } from "../edges/json-body.ts";
import { authenticate, requireAdmin } from "../middleware/auth.ts";
import { validate } from "../middleware/validate.ts";

export function userRoutes(dataAccess: DataAccess) {
  const { users } = dataAccess;
  const signedIn = authenticate(dataAccess);
  const router = new Router({ sensitive: true });

  router
    .get("/", signedIn, requireAdmin, validate({ query: contract.ListUsersQuery }), async (ctx) => {
      ctx.body = await users.list(ctx.state.query);
    })
    .post("/", signedIn, requireAdmin, jsonBody, validate({ body: contract.CreateUserBody }), async (ctx) => {
      const user = await users.create(ctx.state.body);
      ctx.status = 201;
      ctx.set("location", `/users/${user.id}`);
      ctx.body = user;
    });

  // A customer reaches only themself: the data access's queries hold the condition, so another's id is a 404.
  router
    .get("/:id", signedIn, validate({ params: contract.IdParams }), async (ctx) => {
      ctx.body = await users.get(ctx.state.params.id, ctx.state.user);
    })
    .patch(
      "/:id",
      signedIn,
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateUserBody }),
      async (ctx) => {
        ctx.body = await users.update(ctx.state.params.id, ctx.state.body, ctx.state.user);
      },
    )
    .delete("/:id", signedIn, validate({ params: contract.IdParams }), async (ctx) => {
      await users.remove(ctx.state.params.id, ctx.state.user);
      ctx.status = 204;
    });

  return router;
}
