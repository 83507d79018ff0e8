import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import type { Plugin } from "@hapi/hapi";
import { jsonBody } from "../edges/json-body.ts";
import { validateWith } from "../edges/validate.ts";
import { principal } from "../plugins/auth.ts";

/**
 * Listing and creating users is an admin's; `/users/{id}` is any signed-in caller's, on their own row (the data
 * access).
 */
const admins = { access: { scope: "admin" } };

// Paths relative to `/users`, the prefix app.ts registers this plugin under (`routes: { prefix }`).
export const userRoutes: Plugin<{ dataAccess: DataAccess }> = {
  name: "user-routes",
  register(server, { dataAccess: { users } }) {
    server.route<{ Query: contract.ListUsersQuery }>({
      method: "GET",
      path: "/",
      options: {
        auth: admins,
        validate: validateWith({ query: contract.ListUsersQuery }),
        handler: (request) => users.list(request.query),
      },
    });
    server.route<{ Payload: contract.CreateUserBody }>({
      method: "POST",
      path: "/",
      options: {
        auth: admins,
        ...jsonBody(contract.CreateUserBody),
        async handler(request, h) {
          const user = await users.create(request.payload);
          return h.response(user).code(201).location(`/users/${user.id}`);
        },
      },
    });
    server.route<{ Params: contract.IdParams }>({
      method: "GET",
      path: "/{id}",
      options: {
        validate: validateWith({ params: contract.IdParams }),
        handler: (request) => users.get(request.params.id, principal(request)),
      },
    });
    server.route<{ Params: contract.IdParams; Payload: contract.UpdateUserBody }>({
      method: "PATCH",
      path: "/{id}",
      options: {
        ...jsonBody(contract.UpdateUserBody),
        validate: validateWith({ params: contract.IdParams }),
        handler: (request) => users.update(request.params.id, request.payload, principal(request)),
      },
    });
    server.route<{ Params: contract.IdParams }>({
      method: "DELETE",
      path: "/{id}",
      options: {
        validate: validateWith({ params: contract.IdParams }),
        async handler(request, h) {
          await users.remove(request.params.id, principal(request));
          return h.response().code(204);
        },
      },
    });
  },
};
