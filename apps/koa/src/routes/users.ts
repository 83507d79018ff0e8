import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { methodNotAllowed } from "../middleware/errors.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { validate } from "../middleware/validate.ts";
import { strictRouter } from "./router.ts";

export function userRoutes({ users }: DataAccess) {
  const router = strictRouter();

  router
    .get("/users", validate({ query: contract.ListUsersQuery }), async (ctx) => {
      ctx.body = await users.list(ctx.state.query);
    })
    .post("/users", jsonBody, validate({ body: contract.CreateUserBody }), async (ctx) => {
      const user = await users.create(ctx.state.body);
      ctx.status = 201;
      ctx.set("location", `/users/${user.id}`);
      ctx.body = user;
    })
    .all("/users", methodNotAllowed("/users"));

  router
    .get("/users/:id", validate({ params: contract.IdParams }), async (ctx) => {
      ctx.body = await users.get(ctx.state.params.id);
    })
    .patch(
      "/users/:id",
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateUserBody }),
      async (ctx) => {
        ctx.body = await users.update(ctx.state.params.id, ctx.state.body);
      },
    )
    .delete("/users/:id", validate({ params: contract.IdParams }), async (ctx) => {
      await users.remove(ctx.state.params.id);
      ctx.status = 204;
    })
    .all("/users/:id", methodNotAllowed("/users/:id"));

  return router;
}
