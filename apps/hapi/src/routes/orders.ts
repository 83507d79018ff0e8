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
import type { z } from "zod";
import { jsonPayload } from "../json-payload.ts";
import { validateWith } from "../validate.ts";
import { methodNotAllowed } from "./method-not-allowed.ts";

type Id = z.output<typeof IdParams>;

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
        ...jsonPayload,
        validate: validateWith({ headers: CreateOrderHeaders, payload: CreateOrderBody }),
        async handler(request, h) {
          const { order } = await orders.create(request.payload, request.headers["idempotency-key"]);
          return h.response(order).code(201).location(`/orders/${order.id}`);
        },
      },
    });
    server.route<{ Params: Id; Query: GetOrderQuery }>({
      method: "GET",
      path: "/orders/{id}",
      options: {
        validate: validateWith({ params: IdParams, query: GetOrderQuery }),
        handler: (request) => orders.get(request.params.id, request.query.include),
      },
    });
    server.route<{ Params: Id; Payload: UpdateOrderBody }>({
      method: "PATCH",
      path: "/orders/{id}",
      options: {
        ...jsonPayload,
        validate: validateWith({ params: IdParams, payload: UpdateOrderBody }),
        handler: (request) => orders.updateStatus(request.params.id, request.payload.status),
      },
    });
    server.route<{ Params: Id }>({
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
