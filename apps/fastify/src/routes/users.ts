import * as contract from "@api-ref/contract";
import type { FastifyPluginAsyncZod } from "@fastify/type-provider-zod";
import { callerOf } from "../plugins/app/auth.ts";

/**
 * Admins list and create users; anyone signed in reaches a user by id, a customer only themself (the data access's
 * query).
 */
export const userRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { users } = fastify.dataAccess;

  fastify.get(
    "/",
    {
      onRequest: [fastify.authenticate, fastify.requireAdmin],
      schema: { querystring: contract.ListUsersQuery, response: { 200: contract.UserList } },
    },
    (request) => users.list(request.query),
  );

  fastify.post(
    "/",
    {
      onRequest: [fastify.authenticate, fastify.requireAdmin],
      schema: { body: contract.CreateUserBody, response: { 201: contract.User } },
    },
    async (request, reply) => {
      const user = await users.create(request.body);
      return reply.code(201).header("location", `/users/${user.id}`).send(user);
    },
  );

  fastify.get(
    "/:id",
    { onRequest: [fastify.authenticate], schema: { params: contract.IdParams, response: { 200: contract.User } } },
    (request) => users.get(request.params.id, callerOf(request)),
  );

  fastify.patch(
    "/:id",
    {
      onRequest: [fastify.authenticate],
      schema: { params: contract.IdParams, body: contract.UpdateUserBody, response: { 200: contract.User } },
    },
    (request) => users.update(request.params.id, request.body, callerOf(request)),
  );

  fastify.delete(
    "/:id",
    { onRequest: [fastify.authenticate], schema: { params: contract.IdParams } },
    async (request, reply) => {
      await users.remove(request.params.id, callerOf(request));
      return reply.code(204).send();
    },
  );
};
