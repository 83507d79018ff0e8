import {
  CreateOrderBody,
  CreateOrderHeaders,
  GetOrderQuery,
  IdParams,
  ListOrdersQuery,
  UpdateOrderBody,
} from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import type { Plugin } from "@hapi/hapi";
import { jsonBody } from "../json-body.ts";
import { validateWith } from "../validate.ts";
import { methodNotAllowed } from "./method-not-allowed.ts";

export const orderRoutes: Plugin<{ dataAccess: DataAccess }> = {
  name: "order-routes",
  register(server, { dataAccess: { orders } }) {
    server.route<{ Query: ListOrdersQuery }>({
      method: "GET",
      path: "/orders",
      options: {
        validate: validateWith({ query: ListOrdersQuery }),
        handler: (request) => orders.list(request.query),
      },
    });
    server.route<{ Headers: CreateOrderHeaders; Payload: CreateOrderBody }>({
      method: "POST",
      path: "/orders",
      options: {
        ...jsonBody,
        validate: validateWith({ headers: CreateOrderHeaders, payload: CreateOrderBody }),
        async handler(request, h) {
          const { order } = await orders.create(request.payload, request.headers["idempotency-key"]);
          return h.response(order).code(201).location(`/orders/${order.id}`);
        },
      },
    });
    server.route<{ Params: IdParams; Query: GetOrderQuery }>({
      method: "GET",
      path: "/orders/{id}",
      options: {
        validate: validateWith({ params: IdParams, query: GetOrderQuery }),
        handler: (request) => orders.get(request.params.id, request.query.include),
      },
    });
    server.route<{ Params: IdParams; Payload: UpdateOrderBody }>({
      method: "PATCH",
      path: "/orders/{id}",
      options: {
        ...jsonBody,
        validate: validateWith({ params: IdParams, payload: UpdateOrderBody }),
        handler: (request) => orders.updateStatus(request.params.id, request.payload.status),
      },
    });
    server.route<{ Params: IdParams }>({
      method: "DELETE",
      path: "/orders/{id}",
      options: {
        validate: validateWith({ params: IdParams }),
        async handler(request, h) {
          await orders.remove(request.params.id);
          return h.response().code(204);
        },
      },
    });
    server.route(["/orders", "/orders/{id}"].map(methodNotAllowed));
  },
};
