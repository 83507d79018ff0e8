import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { authenticate, requireAdmin } from "@api-ref/express/middleware/auth";
import { validate } from "@api-ref/express/middleware/validate";
import { Router } from "express4";
import { jsonBody } from "../edges/json-body.ts";
import { asyncHandler } from "../middleware/async-handler.ts";

export function productRoutes({ products, auth }: DataAccess) {
  const router = Router({ caseSensitive: true, strict: true });
  const signedIn = authenticate(auth);

  // Anyone reads products; only admins write them.
  router
    .route("/")
    .get(
      validate({ query: contract.ListProductsQuery }),
      asyncHandler(async (_req, res) => {
        res.json(await products.list(res.locals.query));
      }),
    )
    .post(
      signedIn,
      requireAdmin,
      jsonBody,
      validate({ body: contract.CreateProductBody }),
      asyncHandler(async (req, res) => {
        const product = await products.create(req.body);
        res.status(201).location(`/products/${product.id}`).json(product);
      }),
    );

  router
    .route("/:id")
    .get(
      validate({ params: contract.IdParams }),
      asyncHandler(async (_req, res) => {
        res.json(await products.get(res.locals.params.id));
      }),
    )
    .patch(
      signedIn,
      requireAdmin,
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateProductBody }),
      asyncHandler(async (req, res) => {
        res.json(await products.update(res.locals.params.id, req.body));
      }),
    )
    .delete(
      signedIn,
      requireAdmin,
      validate({ params: contract.IdParams }),
      asyncHandler(async (_req, res) => {
        await products.remove(res.locals.params.id);
        res.status(204).end();
      }),
    );

  return router;
}
