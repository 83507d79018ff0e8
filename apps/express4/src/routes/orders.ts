import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { authenticate, requireAdmin } from "@api-ref/express/middleware/auth";
import { validate } from "@api-ref/express/middleware/validate";
import { Router } from "express4";
import { jsonBody } from "../edges/json-body.ts";
import { asyncHandler } from "../middleware/async-handler.ts";

export function orderRoutes({ orders, auth }: DataAccess) {
  const router = Router({ caseSensitive: true, strict: true });
  const signedIn = authenticate(auth);

  // A customer reaches only their own orders (the data access's queries hold the condition: another's is a 404) and may
  // only cancel one (the data access's 403); deleting is an admin's.
  router
    .route("/")
    .get(
      signedIn,
      validate({ query: contract.ListOrdersQuery }),
      asyncHandler(async (_req, res) => {
        res.json(await orders.list(res.locals.query, res.locals.principal));
      }),
    )
    .post(
      signedIn,
      jsonBody,
      validate({ headers: contract.CreateOrderHeaders, body: contract.CreateOrderBody }),
      asyncHandler(async (req, res) => {
        const { principal, headers } = res.locals;
        const { order } = await orders.create(req.body, principal, headers["idempotency-key"]);
        res.status(201).location(`/orders/${order.id}`).json(order);
      }),
    );

  router
    .route("/:id")
    .get(
      signedIn,
      validate({ params: contract.IdParams, query: contract.GetOrderQuery }),
      asyncHandler(async (_req, res) => {
        res.json(await orders.get(res.locals.params.id, res.locals.query.include, res.locals.principal));
      }),
    )
    .patch(
      signedIn,
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateOrderBody }),
      asyncHandler(async (req, res) => {
        res.json(await orders.updateStatus(res.locals.params.id, req.body.status, res.locals.principal));
      }),
    )
    .delete(
      signedIn,
      requireAdmin,
      validate({ params: contract.IdParams }),
      asyncHandler(async (_req, res) => {
        await orders.remove(res.locals.params.id);
        res.status(204).end();
      }),
    );

  return router;
}
