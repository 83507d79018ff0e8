import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { Hono } from "hono";
import { jsonBody } from "../edges/json-body.ts";
import type { AppEnv } from "../env.ts";
import { authenticate, requireAdmin } from "../middleware/auth.ts";
import { body, params, query } from "../middleware/validate.ts";

/**
 * `/products` and `/products/:id`, mounted with `app.route("/products", productRoutes(dataAccess))`. Anyone reads
 * them; only admins write them.
 */
export const productRoutes = (dataAccess: DataAccess) => {
  const { products } = dataAccess;
  const signedIn = authenticate(dataAccess);
  return new Hono<AppEnv>()
    .get("/", query(contract.ListProductsQuery), async (c) => c.json(await products.list(c.req.valid("query"))))
    .post("/", signedIn, requireAdmin, jsonBody, body(contract.CreateProductBody), async (c) => {
      const product = await products.create(c.req.valid("json"));
      return c.json(product, 201, { location: `/products/${product.id}` });
    })
    .get("/:id", params(contract.IdParams), async (c) => c.json(await products.get(c.req.valid("param").id)))
    .patch(
      "/:id",
      signedIn,
      requireAdmin,
      jsonBody,
      params(contract.IdParams),
      body(contract.UpdateProductBody),
      async (c) => c.json(await products.update(c.req.valid("param").id, c.req.valid("json"))),
    )
    .delete("/:id", signedIn, requireAdmin, params(contract.IdParams), async (c) => {
      await products.remove(c.req.valid("param").id);
      return c.body(null, 204);
    });
};
