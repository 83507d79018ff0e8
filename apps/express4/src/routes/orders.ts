import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { methodNotAllowed } from "@api-ref/express/middleware/errors";
import { validate } from "@api-ref/express/middleware/validate";
import { Router } from "express4";
import { asyncHandler } from "../middleware/async-handler.ts";
import { jsonBody } from "../middleware/json-body.ts";

export function orderRoutes({ orders }: DataAccess) {
  const router = Router({ caseSensitive: true, strict: true });

  router
    .route("/orders")
    .get(
      validate({ query: contract.ListOrdersQuery }),
      asyncHandler(async (_req, res) => {
        res.json(await orders.list(res.locals.query));
      }),
    )
    .post(
      jsonBody,
      validate({ headers: contract.CreateOrderHeaders, body: contract.CreateOrderBody }),
      asyncHandler(async (req, res) => {
        const { order } = await orders.create(req.body, res.locals.headers["idempotency-key"]);
        res.status(201).location(`/orders/${order.id}`).json(order);
      }),
    )
    .all(methodNotAllowed("/orders"));

  router
    .route("/orders/:id")
    .get(
      validate({ params: contract.IdParams, query: contract.GetOrderQuery }),
      asyncHandler(async (_req, res) => {
        res.json(await orders.get(res.locals.params.id, res.locals.query.include));
      }),
    )
    .patch(
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateOrderBody }),
      asyncHandler(async (req, res) => {
        res.json(await orders.updateStatus(res.locals.params.id, req.body.status));
      }),
    )
    .delete(
      validate({ params: contract.IdParams }),
      asyncHandler(async (_req, res) => {
        await orders.remove(res.locals.params.id);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed("/orders/:id"));

  return router;
}
