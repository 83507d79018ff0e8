import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { Hono } from "hono";
import { jsonBody } from "../edges/json-body.ts";
import type { AppEnv } from "../env.ts";
import { authenticate, requireAdmin } from "../middleware/auth.ts";
import { body, headers, params, query } from "../middleware/validate.ts";

/**
 * `/orders` and `/orders/:id`, mounted with `app.route("/orders", orderRoutes(dataAccess))`. The data access's
 * queries take the caller: a customer lists and reaches only their own orders (another's is a 404), an order placed
 * is the caller's, and a customer may only cancel (the data access's 403 for any other status). Deleting is an
 * admin's.
 */
export const orderRoutes = (dataAccess: DataAccess) => {
  const { orders } = dataAccess;
  const signedIn = authenticate(dataAccess);
  return new Hono<AppEnv>()
    .get("/", signedIn, query(contract.ListOrdersQuery), async (c) =>
      c.json(await orders.list(c.req.valid("query"), c.var.user)),
    )
    .post("/", signedIn, jsonBody, headers(contract.CreateOrderHeaders), body(contract.CreateOrderBody), async (c) => {
      const key = c.req.valid("header")["idempotency-key"];
      const { order } = await orders.create(c.req.valid("json"), c.var.user, key);
      return c.json(order, 201, { location: `/orders/${order.id}` });
    })
    .get("/:id", signedIn, params(contract.IdParams), query(contract.GetOrderQuery), async (c) =>
      c.json(await orders.get(c.req.valid("param").id, c.req.valid("query").include, c.var.user)),
    )
    .patch("/:id", signedIn, jsonBody, params(contract.IdParams), body(contract.UpdateOrderBody), async (c) =>
      c.json(await orders.updateStatus(c.req.valid("param").id, c.req.valid("json").status, c.var.user)),
    )
    .delete("/:id", signedIn, requireAdmin, params(contract.IdParams), async (c) => {
      await orders.remove(c.req.valid("param").id);
      return c.body(null, 204);
    });
};
