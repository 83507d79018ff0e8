import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Elysia } from "elysia";
import { jsonBody } from "../plugins/json-body.ts";
import { validQuery } from "../plugins/validate.ts";

/** `/users` and `/users/:id`: a plugin with its prefix, each route's schemas beside its handler. */
export const userRoutes = ({ users }: DataAccess) =>
  new Elysia({ prefix: "/users" })
    .use(jsonBody)
    .get("", ({ request }) => users.list(validQuery(contract.ListUsersQuery, request)))
    .post(
      "",
      async ({ body, set, status }) => {
        const user = await users.create(body);
        set.headers.location = `/users/${user.id}`;
        return status(201, user);
      },
      { parse: "contractJson", body: contract.CreateUserBody },
    )
    .get("/:id", ({ params }) => users.get(params.id), { params: contract.IdParams })
    .patch("/:id", ({ params, body }) => users.update(params.id, body), {
      parse: "contractJson",
      params: contract.IdParams,
      body: contract.UpdateUserBody,
    })
    .delete(
      "/:id",
      async ({ params, status }) => {
        await users.remove(params.id);
        return status(204);
      },
      { params: contract.IdParams },
    );
