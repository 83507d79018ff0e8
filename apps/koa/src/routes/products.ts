import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import Router from "@koa/router";
import { jsonBody } from "../edges/json-body.ts";
import { authenticate, requireAdmin } from "../middleware/auth.ts";
import { validate } from "../middleware/validate.ts";

export function productRoutes(dataAccess: DataAccess) {
  const { products } = dataAccess;
  const signedIn = authenticate(dataAccess);
  const router = new Router({ sensitive: true });

  // Anyone reads products; only admins write them.
  router
    .get("/", validate({ query: contract.ListProductsQuery }), async (ctx) => {
      ctx.body = await products.list(ctx.state.query);
    })
    .post("/", signedIn, requireAdmin, jsonBody, validate({ body: contract.CreateProductBody }), async (ctx) => {
      const product = await products.create(ctx.state.body);
      ctx.status = 201;
      ctx.set("location", `/products/${product.id}`);
      ctx.body = product;
    });

  router
    .get("/:id", validate({ params: contract.IdParams }), async (ctx) => {
      ctx.body = await products.get(ctx.state.params.id);
    })
    .patch(
      "/:id",
      signedIn,
      requireAdmin,
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateProductBody }),
      async (ctx) => {
        ctx.body = await products.update(ctx.state.params.id, ctx.state.body);
      },
    )
    .delete("/:id", signedIn, requireAdmin, validate({ params: contract.IdParams }), async (ctx) => {
      await products.remove(ctx.state.params.id);
      ctx.status = 204;
    });

  return router;
}
