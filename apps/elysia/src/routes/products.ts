import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { Elysia } from "elysia";
import { jsonBody } from "../edges/json-body.ts";
import { validQuery } from "../edges/validate.ts";
import { authorization } from "../plugins/auth.ts";

/** `/products` and `/products/:id`: a plugin with its prefix, each route's schemas beside its handler. */
export const productRoutes = ({ products, auth }: DataAccess) =>
  // `""` is `/products` itself: under `strictPath`, `"/"` would be `/products/`, another path.
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
