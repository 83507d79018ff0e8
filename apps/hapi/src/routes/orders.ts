import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import type { Plugin } from "@hapi/hapi";
import { jsonBody } from "../edges/json-body.ts";
import { validateWith } from "../edges/validate.ts";
import { principal } from "../plugins/auth.ts";

/**
 * Every order route needs a signed-in caller (the default strategy); a customer reaches only their own orders
 * (the data access's queries). Deleting an order is an admin's.
 */
// Paths relative to `/orders`, the prefix app.ts registers this plugin under (`routes: { prefix }`).
export const orderRoutes: Plugin<{ dataAccess: DataAccess }> = {
  name: "order-routes",
  register(server, { dataAccess: { orders } }) {
    server.route<{ Query: contract.ListOrdersQuery }>({
      method: "GET",
      path: "/",
      options: {
        validate: validateWith({ query: contract.ListOrdersQuery }),
        handler: (request) => orders.list(request.query, principal(request)),
      },
    });
    server.route<{ Headers: contract.CreateOrderHeaders; Payload: contract.CreateOrderBody }>({
      method: "POST",
      path: "/",
      options: {
        ...jsonBody(contract.CreateOrderBody),
        validate: validateWith({ headers: contract.CreateOrderHeaders }),
        async handler(request, h) {
          const idempotencyKey = request.headers["idempotency-key"];
          const { order } = await orders.create(request.payload, principal(request), idempotencyKey);
          return h.response(order).code(201).location(`/orders/${order.id}`);
        },
      },
    });
    server.route<{ Params: contract.IdParams; Query: contract.GetOrderQuery }>({
      method: "GET",
      path: "/{id}",
      options: {
        validate: validateWith({ params: contract.IdParams, query: contract.GetOrderQuery }),
        handler: (request) => orders.get(request.params.id, request.query.include, principal(request)),
      },
    });
    server.route<{ Params: contract.IdParams; Payload: contract.UpdateOrderBody }>({
      method: "PATCH",
      path: "/{id}",
      options: {
        ...jsonBody(contract.UpdateOrderBody),
        validate: validateWith({ params: contract.IdParams }),
        handler: (request) => orders.updateStatus(request.params.id, request.payload.status, principal(request)),
      },
    });
    server.route<{ Params: contract.IdParams }>({
      method: "DELETE",
      path: "/{id}",
      options: {
        auth: { access: { scope: "admin" } },
        validate: validateWith({ params: contract.IdParams }),
        async handler(request, h) {
          await orders.remove(request.params.id);
          return h.response().code(204);
        },
      },
    });
  },
};
