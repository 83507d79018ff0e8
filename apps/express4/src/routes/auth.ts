import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { methodNotAllowed } from "@api-ref/express/middleware/errors";
import { validate } from "@api-ref/express/middleware/validate";
import { Router } from "express4";
import { asyncHandler } from "../middleware/async-handler.ts";
import { jsonBody } from "../middleware/json-body.ts";

export function authRoutes({ auth }: DataAccess) {
  const router = Router({ caseSensitive: true, strict: true });

  router
    .route("/auth/register")
    .post(
      jsonBody,
      validate({ body: contract.RegisterBody }),
      asyncHandler(async (req, res) => {
        res.status(201).json(await auth.register(req.body));
      }),
    )
    .all(methodNotAllowed("/auth/register"));

  router
    .route("/auth/login")
    .post(
      jsonBody,
      validate({ body: contract.LoginBody }),
      asyncHandler(async (req, res) => {
        res.json(await auth.login(req.body));
      }),
    )
    .all(methodNotAllowed("/auth/login"));

  router
    .route("/auth/me")
    .get(
      asyncHandler(async (req, res) => {
        res.json(await auth.me(req.get("authorization")));
      }),
    )
    .all(methodNotAllowed("/auth/me"));

  return router;
}
