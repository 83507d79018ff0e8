import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import type { Plugin } from "@hapi/hapi";
import { jsonBody } from "../json-body.ts";
import { validateWith } from "../validate.ts";
import { methodNotAllowed } from "./method-not-allowed.ts";

export const orderRoutes: Plugin<{ dataAccess: DataAccess }> = {
  name: "order-routes",
  register(server, { dataAccess: { orders } }) {
    server.route<{ Query: contract.ListOrdersQuery }>({
      method: "GET",
      path: "/orders",
      options: {
        validate: validateWith({ query: contract.ListOrdersQuery }),
        handler: (request) => orders.list(request.query),
      },
    });
    server.route<{ Headers: contract.CreateOrderHeaders; Payload: contract.CreateOrderBody }>({
      method: "POST",
      path: "/orders",
      options: {
        ...jsonBody,
        validate: validateWith({ headers: contract.CreateOrderHeaders, payload: contract.CreateOrderBody }),
        async handler(request, h) {
          const { order } = await orders.create(request.payload, request.headers["idempotency-key"]);
          return h.response(order).code(201).location(`/orders/${order.id}`);
        },
      },
    });
    server.route<{ Params: contract.IdParams; Query: contract.GetOrderQuery }>({
      method: "GET",
      path: "/orders/{id}",
      options: {
        validate: validateWith({ params: contract.IdParams, query: contract.GetOrderQuery }),
        handler: (request) => orders.get(request.params.id, request.query.include),
      },
    });
    server.route<{ Params: contract.IdParams; Payload: contract.UpdateOrderBody }>({
      method: "PATCH",
      path: "/orders/{id}",
      options: {
        ...jsonBody,
        validate: validateWith({ params: contract.IdParams, payload: contract.UpdateOrderBody }),
        handler: (request) => orders.updateStatus(request.params.id, request.payload.status),
      },
    });
    server.route<{ Params: contract.IdParams }>({
      method: "DELETE",
      path: "/orders/{id}",
      options: {
        validate: validateWith({ params: contract.IdParams }),
        async handler(request, h) {
          await orders.remove(request.params.id);
          return h.response().code(204);
        },
      },
    });
    server.route(["/orders", "/orders/{id}"].map(methodNotAllowed));
  },
};
