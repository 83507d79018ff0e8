import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Elysia } from "elysia";
import { jsonBody } from "../plugins/json-body.ts";

/** `/auth/register`, `/auth/login`, `/auth/me`. */
export const authRoutes = ({ auth }: DataAccess) =>
  new Elysia({ prefix: "/auth" })
    .use(jsonBody)
    .post("/register", async ({ body, status }) => status(201, await auth.register(body)), {
      parse: "contractJson",
      body: contract.RegisterBody,
    })
    .post("/login", ({ body }) => auth.login(body), { parse: "contractJson", body: contract.LoginBody })
    .get("/me", ({ headers }) => auth.me(headers.authorization));
