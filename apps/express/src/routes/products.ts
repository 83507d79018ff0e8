import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { Router } from "express";
import { jsonBody } from "../edges/json-body.ts";
import { authenticate, requireAdmin } from "../middleware/auth.ts";
import { validate } from "../middleware/validate.ts";

export function productRoutes({ products, auth }: DataAccess) {
  const router = Router({ caseSensitive: true, strict: true });
  const signedIn = authenticate(auth);

  // Anyone reads products; only admins write them.
  router
    .route("/")
    .get(validate({ query: contract.ListProductsQuery }), async (_req, res) => {
      res.json(await products.list(res.locals.query));
    })
    .post(signedIn, requireAdmin, jsonBody, validate({ body: contract.CreateProductBody }), async (req, res) => {
      const product = await products.create(req.body);
      res.status(201).location(`/products/${product.id}`).json(product);
    });

  router
    .route("/:id")
    .get(validate({ params: contract.IdParams }), async (_req, res) => {
      res.json(await products.get(res.locals.params.id));
    })
    .patch(
      signedIn,
      requireAdmin,
      jsonBody,
      validate({ params: contract.IdParams, body: contract.UpdateProductBody }),
      async (req, res) => {
        res.json(await products.update(res.locals.params.id, req.body));
      },
    )
    .delete(signedIn, requireAdmin, validate({ params: contract.IdParams }), async (_req, res) => {
      await products.remove(res.locals.params.id);
      res.status(204).end();
    });

  return router;
}
