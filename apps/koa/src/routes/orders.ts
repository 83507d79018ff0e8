import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { methodNotAllowed } from "../middleware/errors.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { validate } from "../middleware/validate.ts";
import { strictRouter } from "./router.ts";

export function orderRoutes({ orders }: DataAccess) {
  const router = strictRouter();

  router
    .get("/orders", validate({ query: contract.ListOrdersQuery }), async (ctx) => {
      ctx.body = await orders.list(ctx.state.query);
    })
    .post(
      "/orders",
      jsonBody,
      validate({ headers: contract.CreateOrderHeaders, body: contract.CreateOrderBody }),
      async (ctx) => {
        const { order } = await orders.create(ctx.state.body, ctx.state.headers["idempotency-key"]);
        ctx.status = 201;
        ctx.set("location", `/orders/${order.id}`);
        ctx.body = order;
      },
    )
    .all("/orders", methodNotAllowed("/orders"));

  router
    .get("/orders/:id", validate({ params: contract.IdParams, query: contract.GetOrderQuery }), async (ctx) => {
      ctx.body = await orders.get(ctx.state.params.id, ctx.state.query.include);
    })
    .patch(
      "/orders/:id",
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateOrderBody }),
      async (ctx) => {
        ctx.body = await orders.updateStatus(ctx.state.params.id, ctx.state.body.status);
      },
    )
    .delete("/orders/:id", validate({ params: contract.IdParams }), async (ctx) => {
      await orders.remove(ctx.state.params.id);
      ctx.status = 204;
    })
    .all("/orders/:id", methodNotAllowed("/orders/:id"));

  return router;
}
