import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { Hono } from "hono";
import { jsonBody } from "../edges/json-body.ts";
import type { AppEnv } from "../env.ts";
import { authenticate, requireAdmin } from "../middleware/auth.ts";
import { body, params, query } from "../middleware/validate.ts";

/**
 * `/users` and `/users/:id`, mounted with `app.route("/users", userRoutes(dataAccess))`. Admins list and create;
 * a customer reaches only themself (the data access's queries take the caller: another user's id is a 404).
 */
export const userRoutes = (dataAccess: DataAccess) => {
  const { users } = dataAccess;
  const signedIn = authenticate(dataAccess);
  return new Hono<AppEnv>()
    .get("/", signedIn, requireAdmin, query(contract.ListUsersQuery), async (c) =>
      c.json(await users.list(c.req.valid("query"))),
    )
    .post("/", signedIn, requireAdmin, jsonBody, body(contract.CreateUserBody), async (c) => {
      const user = await users.create(c.req.valid("json"));
      return c.json(user, 201, { location: `/users/${user.id}` });
    })
    .get("/:id", signedIn, params(contract.IdParams), async (c) =>
      c.json(await users.get(c.req.valid("param").id, c.var.user)),
    )
    .patch("/:id", signedIn, jsonBody, params(contract.IdParams), body(contract.UpdateUserBody), async (c) =>
      c.json(await users.update(c.req.valid("param").id, c.req.valid("json"), c.var.user)),
    )
    .delete("/:id", signedIn, params(contract.IdParams), async (c) => {
      await users.remove(c.req.valid("param").id, c.var.user);
      return c.body(null, 204);
    });
};
