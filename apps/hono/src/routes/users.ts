import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { body, params, query } from "../middleware/validate.ts";

/** `/users` and `/users/:id`, mounted with `app.route("/users", userRoutes(dataAccess))`. */
export const userRoutes = ({ users }: DataAccess) =>
  new Hono<AppEnv>()
    .get("/", query(contract.ListUsersQuery), async (c) => c.json(await users.list(c.req.valid("query"))))
    .post("/", jsonBody, body(contract.CreateUserBody), async (c) => {
      const user = await users.create(c.req.valid("json"));
      return c.json(user, 201, { location: `/users/${user.id}` });
    })
    .get("/:id", params(contract.IdParams), async (c) => c.json(await users.get(c.req.valid("param").id)))
    .patch("/:id", jsonBody, params(contract.IdParams), body(contract.UpdateUserBody), async (c) =>
      c.json(await users.update(c.req.valid("param").id, c.req.valid("json"))),
    )
    .delete("/:id", params(contract.IdParams), async (c) => {
      await users.remove(c.req.valid("param").id);
      return c.body(null, 204);
    });
