import {
  CreateOrderBody,
  CreateOrderHeaders,
  GetOrderQuery,
  IdParams,
  ListOrdersQuery,
  UpdateOrderBody,
} from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { methodNotAllowed } from "../middleware/errors.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { validate } from "../middleware/validate.ts";
import { strictRouter } from "./router.ts";

export function orderRoutes({ orders }: DataAccess) {
  const router = strictRouter();

  router
    .get("/orders", validate({ query: ListOrdersQuery }), async (ctx) => {
      ctx.body = await orders.list(ctx.state.query);
    })
    .post("/orders", jsonBody, validate({ headers: CreateOrderHeaders, body: CreateOrderBody }), async (ctx) => {
      const { order } = await orders.create(ctx.state.body, ctx.state.headers["idempotency-key"]);
      ctx.status = 201;
      ctx.set("location", `/orders/${order.id}`);
      ctx.body = order;
    })
    .all("/orders", methodNotAllowed("/orders"));

  router
    .get("/orders/:id", validate({ params: IdParams, query: GetOrderQuery }), async (ctx) => {
      ctx.body = await orders.get(ctx.state.params.id, ctx.state.query.include);
    })
    .patch("/orders/:id", jsonBody, validate({ params: IdParams, body: UpdateOrderBody }), async (ctx) => {
      ctx.body = await orders.updateStatus(ctx.state.params.id, ctx.state.body.status);
    })
    .delete("/orders/:id", validate({ params: IdParams }), async (ctx) => {
      await orders.remove(ctx.state.params.id);
      ctx.status = 204;
    })
    .all("/orders/:id", methodNotAllowed("/orders/:id"));

  return router;
}
