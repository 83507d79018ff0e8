import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { authenticate, requireAdmin } from "@api-ref/express/middleware/auth";
import { validate } from "@api-ref/express/middleware/validate";
import { Router } from "express4";
import { jsonBody } from "../edges/json-body.ts";
import { asyncHandler } from "../middleware/async-handler.ts";

export function userRoutes({ users, auth }: DataAccess) {
  const router = Router({ caseSensitive: true, strict: true });
  const signedIn = authenticate(auth);

  router
    .route("/")
    .get(
      signedIn,
      requireAdmin,
      validate({ query: contract.ListUsersQuery }),
      asyncHandler(async (_req, res) => {
        res.json(await users.list(res.locals.query));
      }),
    )
    .post(
      signedIn,
      requireAdmin,
      jsonBody,
      validate({ body: contract.CreateUserBody }),
      asyncHandler(async (req, res) => {
        const user = await users.create(req.body);
        res.status(201).location(`/users/${user.id}`).json(user);
      }),
    );

  // A customer reaches only themself: the data access's queries hold the condition, so another's id is a 404.
  router
    .route("/:id")
    .get(
      signedIn,
      validate({ params: contract.IdParams }),
      asyncHandler(async (_req, res) => {
        res.json(await users.get(res.locals.params.id, res.locals.principal));
      }),
    )
    .patch(
      signedIn,
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateUserBody }),
      asyncHandler(async (req, res) => {
        res.json(await users.update(res.locals.params.id, req.body, res.locals.principal));
      }),
    )
    .delete(
      signedIn,
      validate({ params: contract.IdParams }),
      asyncHandler(async (_req, res) => {
        await users.remove(res.locals.params.id, res.locals.principal);
        res.status(204).end();
      }),
    );

  return router;
}
