import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { Elysia } from "elysia";
import { jsonBody } from "../edges/json-body.ts";
import { validQuery } from "../edges/validate.ts";
import { authorization } from "../plugins/auth.ts";

/** `/orders` and `/orders/:id`: a plugin with its prefix, a group per access level, each route's schemas beside it. */
export const orderRoutes = ({ orders, auth }: DataAccess) =>
  // `""` is `/orders` itself: under `strictPath`, `"/"` would be `/orders/`, another path.
  new Elysia({ prefix: "/orders" })
    .use(jsonBody)
    .use(authorization({ auth }))
    // Any signed-in caller: a customer reaches only their own orders (the data access's queries), an admin every order.
    .group("", { auth: "user" }, (signedIn) =>
      signedIn
        .get("", ({ request, principal }) => orders.list(validQuery(contract.ListOrdersQuery, request), principal))
        .post(
          "",
          async ({ body, headers, principal, set, status }) => {
            const { order } = await orders.create(body, principal, headers["idempotency-key"]);
            set.headers.location = `/orders/${order.id}`;
            return status(201, order);
          },
          { json: true, headers: contract.CreateOrderHeaders, body: contract.CreateOrderBody },
        )
        .get(
          "/:id",
          ({ params, principal, request }) =>
            orders.get(params.id, validQuery(contract.GetOrderQuery, request).include, principal),
          { params: contract.IdParams },
        )
        .patch("/:id", ({ params, body, principal }) => orders.updateStatus(params.id, body.status, principal), {
          json: true,
          params: contract.IdParams,
          body: contract.UpdateOrderBody,
        }),
    )
    // Deleting an order is an admin's.
    .group("", { auth: "admin" }, (admins) =>
      admins.delete(
        "/:id",
        async ({ params, status }) => {
          await orders.remove(params.id);
          return status(204);
        },
        { params: contract.IdParams },
      ),
    );
