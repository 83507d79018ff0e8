import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import Router from "@koa/router";
import { jsonBody } from "../edges/json-body.ts";
import { authenticate, requireAdmin } from "../middleware/auth.ts";
import { validate } from "../middleware/validate.ts";

export function orderRoutes(dataAccess: DataAccess) {
  const { orders } = dataAccess;
  const signedIn = authenticate(dataAccess);
  const router = new Router({ sensitive: true });

  // The data access's queries take the caller: a customer lists and reaches only their own orders (another's is a
  // 404), and an order placed is the caller's.
  router
    .get("/", signedIn, validate({ query: contract.ListOrdersQuery }), async (ctx) => {
      ctx.body = await orders.list(ctx.state.query, ctx.state.user);
    })
    .post(
      "/",
      signedIn,
      jsonBody,
      validate({ headers: contract.CreateOrderHeaders, body: contract.CreateOrderBody }),
      async (ctx) => {
        const { order } = await orders.create(ctx.state.body, ctx.state.user, ctx.state.headers["idempotency-key"]);
        ctx.status = 201;
        ctx.set("location", `/orders/${order.id}`);
        ctx.body = order;
      },
    );

  router
    .get("/:id", signedIn, validate({ params: contract.IdParams, query: contract.GetOrderQuery }), async (ctx) => {
      ctx.body = await orders.get(ctx.state.params.id, ctx.state.query.include, ctx.state.user);
    })
    .patch(
      "/:id",
      signedIn,
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateOrderBody }),
      async (ctx) => {
        // A customer may only cancel: the data access answers 403 for any other status.
        ctx.body = await orders.updateStatus(ctx.state.params.id, ctx.state.body.status, ctx.state.user);
      },
    )
    .delete("/:id", signedIn, requireAdmin, validate({ params: contract.IdParams }), async (ctx) => {
      await orders.remove(ctx.state.params.id);
      ctx.status = 204;
    });

  return router;
}
