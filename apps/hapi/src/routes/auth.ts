import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import type { Plugin, RouteOptionsCache } from "@hapi/hapi";
import { jsonBody } from "../edges/json-body.ts";
import { principal } from "../plugins/auth.ts";

/** Tokens and the caller's own user are never stored by a cache (RFC 6749 §5.1): Hapi's `cache-control` for them. */
const noStore: RouteOptionsCache = { otherwise: "no-store" };

/** Counted by the auth rate limit (`plugins/rate-limit.ts`), per client address, each route apart. */
const rateLimited = { "auth-rate-limit": true };

// Paths relative to `/auth`, the prefix app.ts registers this plugin under (`routes: { prefix }`).
export const authRoutes: Plugin<{ dataAccess: DataAccess }> = {
  name: "auth-routes",
  register(server, { dataAccess: { auth } }) {
    server.route<{ Payload: contract.RegisterBody }>({
      method: "POST",
      path: "/register",
      options: {
        auth: false,
        cache: noStore,
        plugins: rateLimited,
        ...jsonBody(contract.RegisterBody),
        handler: async (request, h) => h.response(await auth.register(request.payload)).code(201),
      },
    });
    server.route<{ Payload: contract.LoginBody }>({
      method: "POST",
      path: "/login",
      options: {
        auth: false,
        cache: noStore,
        plugins: rateLimited,
        ...jsonBody(contract.LoginBody),
        handler: (request) => auth.login(request.payload),
      },
    });
    server.route({
      method: "GET",
      path: "/me",
      options: { cache: noStore, handler: (request) => auth.me(principal(request)) },
    });
  },
};
