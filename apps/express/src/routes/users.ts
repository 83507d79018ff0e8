import { CreateUserBody, IdParams, ListUsersQuery, UpdateUserBody } from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Router } from "express";
import { methodNotAllowed } from "../middleware/errors.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { validate } from "../middleware/validate.ts";

export function userRoutes({ users }: DataAccess) {
  const router = Router({ caseSensitive: true, strict: true });

  router
    .route("/users")
    .get(validate({ query: ListUsersQuery }), async (_req, res) => {
      res.json(await users.list(res.locals.query));
    })
    .post(jsonBody, validate({ body: CreateUserBody }), async (req, res) => {
      const user = await users.create(req.body);
      res.status(201).location(`/users/${user.id}`).json(user);
    })
    .all(methodNotAllowed("/users"));

  router
    .route("/users/:id")
    .get(validate({ params: IdParams }), async (_req, res) => {
      res.json(await users.get(res.locals.params.id));
    })
    .patch(jsonBody, validate({ params: IdParams, body: UpdateUserBody }), async (req, res) => {
      res.json(await users.update(res.locals.params.id, req.body));
    })
    .delete(validate({ params: IdParams }), async (_req, res) => {
      await users.remove(res.locals.params.id);
      res.status(204).end();
    })
    .all(methodNotAllowed("/users/:id"));

  return router;
}
