import * as contract from "@api-ref/contract";
import { AUTH_RATE_WINDOW_SECONDS } from "@api-ref/server";
import type { FastifyPluginAsyncZod } from "@fastify/type-provider-zod";
import { callerOf } from "../plugins/app/auth.ts";

export interface AuthRoutesOptions {
  /** Requests per client address and window to each of register and login (`config.authRateLimit`). */
  authRateLimit: number;
}

/**
 * Register and login are public, and rate-limited (plugins/external/rate-limit.ts); /auth/me is the signed-in
 * caller. Their answers (a token, the caller's own user) are `cache-control: no-store`: no cache along the way may
 * keep or replay them.
 */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (fastify, { authRateLimit }) => {
  const { auth } = fastify.dataAccess;
  // A fixed window: `continueExceeding` stays off, so requests past the limit do not push its end back.
  const rateLimit = { max: authRateLimit, timeWindow: AUTH_RATE_WINDOW_SECONDS * 1000 };

  fastify.post(
    "/register",
    { config: { rateLimit }, schema: { body: contract.RegisterBody, response: { 201: contract.RegisterResponse } } },
    async (request, reply) => {
      const registered = await auth.register(request.body);
      return reply.code(201).header("cache-control", "no-store").send(registered);
    },
  );

  fastify.post(
    "/login",
    { config: { rateLimit }, schema: { body: contract.LoginBody, response: { 200: contract.LoginResponse } } },
    async (request, reply) => {
      const token = await auth.login(request.body);
      return reply.header("cache-control", "no-store").send(token);
    },
  );

  fastify.get(
    "/me",
    { onRequest: [fastify.authenticate], schema: { response: { 200: contract.User } } },
    async (request, reply) => {
      const user = await auth.me(callerOf(request));
      return reply.header("cache-control", "no-store").send(user);
    },
  );
};
