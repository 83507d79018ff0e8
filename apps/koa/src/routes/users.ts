import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { authenticate, requireAdmin } from "../middleware/auth.ts";
import { methodNotAllowed } from "../middleware/errors.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { validate } from "../middleware/validate.ts";
import { strictRouter } from "./router.ts";

export function userRoutes(dataAccess: DataAccess) {
  const { users } = dataAccess;
  const signedIn = authenticate(dataAccess);
  const router = strictRouter();

  router
    .get("/users", signedIn, requireAdmin, validate({ query: contract.ListUsersQuery }), async (ctx) => {
      ctx.body = await users.list(ctx.state.query);
    })
    .post("/users", signedIn, requireAdmin, jsonBody, validate({ body: contract.CreateUserBody }), async (ctx) => {
      const user = await users.create(ctx.state.body);
      ctx.status = 201;
      ctx.set("location", `/users/${user.id}`);
      ctx.body = user;
    })
    .all("/users", methodNotAllowed("/users"));

  // A customer reaches only themself: core's queries take the caller, and another user's id is a 404.
  router
    .get("/users/:id", signedIn, validate({ params: contract.IdParams }), async (ctx) => {
      ctx.body = await users.get(ctx.state.params.id, ctx.state.user);
    })
    .patch(
      "/users/:id",
      signedIn,
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateUserBody }),
      async (ctx) => {
        ctx.body = await users.update(ctx.state.params.id, ctx.state.body, ctx.state.user);
      },
    )
    .delete("/users/:id", signedIn, validate({ params: contract.IdParams }), async (ctx) => {
      await users.remove(ctx.state.params.id, ctx.state.user);
      ctx.status = 204;
    })
    .all("/users/:id", methodNotAllowed("/users/:id"));

  return router;
}
