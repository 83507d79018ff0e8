import * as contract from "@api-ref/contract";
import type { FastifyPluginAsyncZod } from "@fastify/type-provider-zod";
import { refuseOtherMethods } from "../errors.ts";

export const authRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { auth } = fastify.dataAccess;

  fastify.post(
    "/auth/register",
    { schema: { body: contract.RegisterBody, response: { 201: contract.RegisterResponse } } },
    async (request, reply) => reply.code(201).send(await auth.register(request.body)),
  );

  fastify.post(
    "/auth/login",
    { schema: { body: contract.LoginBody, response: { 200: contract.LoginResponse } } },
    (request) => auth.login(request.body),
  );

  fastify.get("/auth/me", { schema: { response: { 200: contract.User } } }, (request) =>
    auth.me(request.headers.authorization),
  );

  refuseOtherMethods(fastify, "/auth/register");
  refuseOtherMethods(fastify, "/auth/login");
  refuseOtherMethods(fastify, "/auth/me");
};
