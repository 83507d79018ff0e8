import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { body, headers, params, query } from "../middleware/validate.ts";

/** `/orders` and `/orders/:id`, mounted with `app.route("/orders", orderRoutes(dataAccess))`. */
export const orderRoutes = ({ orders }: DataAccess) =>
  new Hono<AppEnv>()
    .get("/", query(contract.ListOrdersQuery), async (c) => c.json(await orders.list(c.req.valid("query"))))
    .post("/", jsonBody, headers(contract.CreateOrderHeaders), body(contract.CreateOrderBody), async (c) => {
      const { order } = await orders.create(c.req.valid("json"), c.req.valid("header")["idempotency-key"]);
      return c.json(order, 201, { location: `/orders/${order.id}` });
    })
    .get("/:id", params(contract.IdParams), query(contract.GetOrderQuery), async (c) =>
      c.json(await orders.get(c.req.valid("param").id, c.req.valid("query").include)),
    )
    .patch("/:id", jsonBody, params(contract.IdParams), body(contract.UpdateOrderBody), async (c) =>
      c.json(await orders.updateStatus(c.req.valid("param").id, c.req.valid("json").status)),
    )
    .delete("/:id", params(contract.IdParams), async (c) => {
      await orders.remove(c.req.valid("param").id);
      return c.body(null, 204);
    });
