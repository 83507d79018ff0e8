import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { body } from "../middleware/validate.ts";

/** `/auth/register`, `/auth/login`, `/auth/me`, mounted with `app.route("/auth", authRoutes(dataAccess))`. */
export const authRoutes = ({ auth }: DataAccess) =>
  new Hono<AppEnv>()
    .post("/register", jsonBody, body(contract.RegisterBody), async (c) =>
      c.json(await auth.register(c.req.valid("json")), 201),
    )
    .post("/login", jsonBody, body(contract.LoginBody), async (c) => c.json(await auth.login(c.req.valid("json"))))
    .get("/me", async (c) => c.json(await auth.me(c.req.header("authorization"))));
