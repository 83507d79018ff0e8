import { LoginBody, LoginResponse, RegisterBody, RegisterResponse, User } from "@api-ref/contract";
import type { FastifyPluginAsyncZod } from "@fastify/type-provider-zod";
import { refuseOtherMethods } from "../errors.ts";

export const authRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { auth } = fastify.dataAccess;

  fastify.post(
    "/auth/register",
    { schema: { body: RegisterBody, response: { 201: RegisterResponse } } },
    async (request, reply) => reply.code(201).send(await auth.register(request.body)),
  );

  fastify.post("/auth/login", { schema: { body: LoginBody, response: { 200: LoginResponse } } }, (request) =>
    auth.login(request.body),
  );

  fastify.get("/auth/me", { schema: { response: { 200: User } } }, (request) => auth.me(request.headers.authorization));

  refuseOtherMethods(fastify, "/auth/register");
  refuseOtherMethods(fastify, "/auth/login");
  refuseOtherMethods(fastify, "/auth/me");
};
