import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Elysia } from "elysia";
import { authorization } from "../plugins/auth.ts";
import { jsonBody } from "../plugins/json-body.ts";
import { validQuery } from "../plugins/validate.ts";

/** `/products` and `/products/:id`: a plugin with its prefix, each route's schemas beside its handler. */
export const productRoutes = ({ products, auth }: DataAccess) =>
  new Elysia({ prefix: "/products" })
    .use(jsonBody)
    .use(authorization({ auth }))
    // Anyone reads products.
    .get("", ({ request }) => products.list(validQuery(contract.ListProductsQuery, request)))
    .get("/:id", ({ params }) => products.get(params.id), { params: contract.IdParams })
    // Only admins write them.
    .group("", { auth: "admin" }, (admins) =>
      admins
        .post(
          "",
          async ({ body, set, status }) => {
            const product = await products.create(body);
            set.headers.location = `/products/${product.id}`;
            return status(201, product);
          },
          { json: true, body: contract.CreateProductBody },
        )
        .patch("/:id", ({ params, body }) => products.update(params.id, body), {
          json: true,
          params: contract.IdParams,
          body: contract.UpdateProductBody,
        })
        .delete(
          "/:id",
          async ({ params, status }) => {
            await products.remove(params.id);
            return status(204);
          },
          { params: contract.IdParams },
        ),
    );
