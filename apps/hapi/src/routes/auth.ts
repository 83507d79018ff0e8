import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import type { Plugin } from "@hapi/hapi";
import { jsonBody } from "../json-body.ts";
import { validateWith } from "../validate.ts";
import { methodNotAllowed } from "./method-not-allowed.ts";

export const authRoutes: Plugin<{ dataAccess: DataAccess }> = {
  name: "auth-routes",
  register(server, { dataAccess: { auth } }) {
    server.route<{ Payload: contract.RegisterBody }>({
      method: "POST",
      path: "/auth/register",
      options: {
        ...jsonBody,
        validate: validateWith({ payload: contract.RegisterBody }),
        handler: async (request, h) => h.response(await auth.register(request.payload)).code(201),
      },
    });
    server.route<{ Payload: contract.LoginBody }>({
      method: "POST",
      path: "/auth/login",
      options: {
        ...jsonBody,
        validate: validateWith({ payload: contract.LoginBody }),
        handler: (request) => auth.login(request.payload),
      },
    });
    server.route({
      method: "GET",
      path: "/auth/me",
      handler: (request) => auth.me(request.raw.req.headers.authorization),
    });
    server.route(["/auth/register", "/auth/login", "/auth/me"].map(methodNotAllowed));
  },
};
