import * as contract from "@api-ref/contract";
import type { FastifyPluginAsyncZod } from "@fastify/type-provider-zod";
import { refuseOtherMethods } from "../errors.ts";

export const userRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { users } = fastify.dataAccess;

  fastify.get(
    "/users",
    { schema: { querystring: contract.ListUsersQuery, response: { 200: contract.UserList } } },
    (request) => users.list(request.query),
  );

  fastify.post(
    "/users",
    { schema: { body: contract.CreateUserBody, response: { 201: contract.User } } },
    async (request, reply) => {
      const user = await users.create(request.body);
      return reply.code(201).header("location", `/users/${user.id}`).send(user);
    },
  );

  fastify.get("/users/:id", { schema: { params: contract.IdParams, response: { 200: contract.User } } }, (request) =>
    users.get(request.params.id),
  );

  fastify.patch(
    "/users/:id",
    { schema: { params: contract.IdParams, body: contract.UpdateUserBody, response: { 200: contract.User } } },
    (request) => users.update(request.params.id, request.body),
  );

  fastify.delete("/users/:id", { schema: { params: contract.IdParams } }, async (request, reply) => {
    await users.remove(request.params.id);
    return reply.code(204).send();
  });

  refuseOtherMethods(fastify, "/users");
  refuseOtherMethods(fastify, "/users/:id");
};
