import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Elysia } from "elysia";
import { jsonBody } from "../plugins/json-body.ts";
import { validQuery } from "../plugins/validate.ts";

/** `/orders` and `/orders/:id`: a plugin with its prefix, each route's schemas beside its handler. */
export const orderRoutes = ({ orders }: DataAccess) =>
  new Elysia({ prefix: "/orders" })
    .use(jsonBody)
    .get("", ({ request }) => orders.list(validQuery(contract.ListOrdersQuery, request)))
    .post(
      "",
      async ({ body, headers, set, status }) => {
        const { order } = await orders.create(body, headers["idempotency-key"]);
        set.headers.location = `/orders/${order.id}`;
        return status(201, order);
      },
      { parse: "contractJson", headers: contract.CreateOrderHeaders, body: contract.CreateOrderBody },
    )
    .get("/:id", ({ params, request }) => orders.get(params.id, validQuery(contract.GetOrderQuery, request).include), {
      params: contract.IdParams,
    })
    .patch("/:id", ({ params, body }) => orders.updateStatus(params.id, body.status), {
      parse: "contractJson",
      params: contract.IdParams,
      body: contract.UpdateOrderBody,
    })
    .delete(
      "/:id",
      async ({ params, status }) => {
        await orders.remove(params.id);
        return status(204);
      },
      { params: contract.IdParams },
    );
