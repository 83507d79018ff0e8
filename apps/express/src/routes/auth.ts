import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Router } from "express";
import { methodNotAllowed } from "../middleware/errors.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { validate } from "../middleware/validate.ts";

export function authRoutes({ auth }: DataAccess) {
  const router = Router({ caseSensitive: true, strict: true });

  router
    .route("/auth/register")
    .post(jsonBody, validate({ body: contract.RegisterBody }), async (req, res) => {
      res.status(201).json(await auth.register(req.body));
    })
    .all(methodNotAllowed("/auth/register"));

  router
    .route("/auth/login")
    .post(jsonBody, validate({ body: contract.LoginBody }), async (req, res) => {
      res.json(await auth.login(req.body));
    })
    .all(methodNotAllowed("/auth/login"));

  router
    .route("/auth/me")
    .get(async (req, res) => {
      res.json(await auth.me(req.get("authorization")));
    })
    .all(methodNotAllowed("/auth/me"));

  return router;
}
