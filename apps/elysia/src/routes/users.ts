import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { Elysia } from "elysia";
import { jsonBody } from "../edges/json-body.ts";
import { validQuery } from "../edges/validate.ts";
import { authorization } from "../plugins/auth.ts";

/** `/users` and `/users/:id`: a plugin with its prefix, a group per access level, each route's schemas beside it. */
export const userRoutes = ({ users, auth }: DataAccess) =>
  // `""` is `/users` itself: under `strictPath`, `"/"` would be `/users/`, another path.
  new Elysia({ prefix: "/users" })
    .use(jsonBody)
    .use(authorization({ auth }))
    // Listing and creating users is an admin's.
    .group("", { auth: "admin" }, (admins) =>
      admins
        .get("", ({ request }) => users.list(validQuery(contract.ListUsersQuery, request)))
        .post(
          "",
          async ({ body, set, status }) => {
            const user = await users.create(body);
            set.headers.location = `/users/${user.id}`;
            return status(201, user);
          },
          { json: true, body: contract.CreateUserBody },
        ),
    )
    // Any signed-in caller, on their own row (the data access's queries answer 404 for another's); an admin, on any.
    .group("", { auth: "user" }, (signedIn) =>
      signedIn
        .get("/:id", ({ params, principal }) => users.get(params.id, principal), { params: contract.IdParams })
        .patch("/:id", ({ params, body, principal }) => users.update(params.id, body, principal), {
          json: true,
          params: contract.IdParams,
          body: contract.UpdateUserBody,
        })
        .delete(
          "/:id",
          async ({ params, principal, status }) => {
            await users.remove(params.id, principal);
            return status(204);
          },
          { params: contract.IdParams },
        ),
    );
