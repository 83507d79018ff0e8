import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import type { Plugin } from "@hapi/hapi";
import { jsonBody } from "../json-body.ts";
import { validateWith } from "../validate.ts";
import { methodNotAllowed } from "./method-not-allowed.ts";

export const userRoutes: Plugin<{ dataAccess: DataAccess }> = {
  name: "user-routes",
  register(server, { dataAccess: { users } }) {
    server.route<{ Query: contract.ListUsersQuery }>({
      method: "GET",
      path: "/users",
      options: {
        validate: validateWith({ query: contract.ListUsersQuery }),
        handler: (request) => users.list(request.query),
      },
    });
    server.route<{ Payload: contract.CreateUserBody }>({
      method: "POST",
      path: "/users",
      options: {
        ...jsonBody,
        validate: validateWith({ payload: contract.CreateUserBody }),
        async handler(request, h) {
          const user = await users.create(request.payload);
          return h.response(user).code(201).location(`/users/${user.id}`);
        },
      },
    });
    server.route<{ Params: contract.IdParams }>({
      method: "GET",
      path: "/users/{id}",
      options: {
        validate: validateWith({ params: contract.IdParams }),
        handler: (request) => users.get(request.params.id),
      },
    });
    server.route<{ Params: contract.IdParams; Payload: contract.UpdateUserBody }>({
      method: "PATCH",
      path: "/users/{id}",
      options: {
        ...jsonBody,
        validate: validateWith({ params: contract.IdParams, payload: contract.UpdateUserBody }),
        handler: (request) => users.update(request.params.id, request.payload),
      },
    });
    server.route<{ Params: contract.IdParams }>({
      method: "DELETE",
      path: "/users/{id}",
      options: {
        validate: validateWith({ params: contract.IdParams }),
        async handler(request, h) {
          await users.remove(request.params.id);
          return h.response().code(204);
        },
      },
    });
    server.route(["/users", "/users/{id}"].map(methodNotAllowed));
  },
};
