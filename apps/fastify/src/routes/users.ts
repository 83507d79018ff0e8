import { CreateUserBody, IdParams, ListUsersQuery, UpdateUserBody, User, UserList } from "@api-ref/contract";
import type { FastifyPluginAsyncZod } from "@fastify/type-provider-zod";
import { refuseOtherMethods } from "../errors.ts";

export const userRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { users } = fastify.dataAccess;

  fastify.get("/users", { schema: { querystring: ListUsersQuery, response: { 200: UserList } } }, (request) =>
    users.list(request.query),
  );

  fastify.post("/users", { schema: { body: CreateUserBody, response: { 201: User } } }, async (request, reply) => {
    const user = await users.create(request.body);
    return reply.code(201).header("location", `/users/${user.id}`).send(user);
  });

  fastify.get("/users/:id", { schema: { params: IdParams, response: { 200: User } } }, (request) =>
    users.get(request.params.id),
  );

  fastify.patch(
    "/users/:id",
    { schema: { params: IdParams, body: UpdateUserBody, response: { 200: User } } },
    (request) => users.update(request.params.id, request.body),
  );

  fastify.delete("/users/:id", { schema: { params: IdParams } }, async (request, reply) => {
    await users.remove(request.params.id);
    return reply.code(204).send();
  });

  refuseOtherMethods(fastify, "/users");
  refuseOtherMethods(fastify, "/users/:id");
};
