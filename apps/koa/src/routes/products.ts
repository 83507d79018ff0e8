import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { authenticate, requireAdmin } from "../middleware/auth.ts";
import { methodNotAllowed } from "../middleware/errors.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { validate } from "../middleware/validate.ts";
import { strictRouter } from "./router.ts";

export function productRoutes(dataAccess: DataAccess) {
  const { products } = dataAccess;
  const signedIn = authenticate(dataAccess);
  const router = strictRouter();

  // Anyone reads products; only admins write them.
  router
    .get("/products", validate({ query: contract.ListProductsQuery }), async (ctx) => {
      ctx.body = await products.list(ctx.state.query);
    })
    .post(
      "/products",
      signedIn,
      requireAdmin,
      jsonBody,
      validate({ body: contract.CreateProductBody }),
      async (ctx) => {
        const product = await products.create(ctx.state.body);
        ctx.status = 201;
        ctx.set("location", `/products/${product.id}`);
        ctx.body = product;
      },
    )
    .all("/products", methodNotAllowed("/products"));

  router
    .get("/products/:id", validate({ params: contract.IdParams }), async (ctx) => {
      ctx.body = await products.get(ctx.state.params.id);
    })
    .patch(
      "/products/:id",
      signedIn,
      requireAdmin,
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateProductBody }),
      async (ctx) => {
        ctx.body = await products.update(ctx.state.params.id, ctx.state.body);
      },
    )
    .delete("/products/:id", signedIn, requireAdmin, validate({ params: contract.IdParams }), async (ctx) => {
      await products.remove(ctx.state.params.id);
      ctx.status = 204;
    })
    .all("/products/:id", methodNotAllowed("/products/:id"));

  return router;
}
