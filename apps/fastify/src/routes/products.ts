import * as contract from "@api-ref/contract";
import type { FastifyPluginAsyncZod } from "@fastify/type-provider-zod";

/** Anyone reads products; only admins write them. */
export const productRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { products } = fastify.dataAccess;

  fastify.get(
    "/",
    { schema: { querystring: contract.ListProductsQuery, response: { 200: contract.ProductList } } },
    (request) => products.list(request.query),
  );

  fastify.post(
    "/",
    {
      onRequest: [fastify.authenticate, fastify.requireAdmin],
      schema: { body: contract.CreateProductBody, response: { 201: contract.Product } },
    },
    async (request, reply) => {
      const product = await products.create(request.body);
      return reply.code(201).header("location", `/products/${product.id}`).send(product);
    },
  );

  fastify.get("/:id", { schema: { params: contract.IdParams, response: { 200: contract.Product } } }, (request) =>
    products.get(request.params.id),
  );

  fastify.patch(
    "/:id",
    {
      onRequest: [fastify.authenticate, fastify.requireAdmin],
      schema: { params: contract.IdParams, body: contract.UpdateProductBody, response: { 200: contract.Product } },
    },
    (request) => products.update(request.params.id, request.body),
  );

  fastify.delete(
    "/:id",
    { onRequest: [fastify.authenticate, fastify.requireAdmin], schema: { params: contract.IdParams } },
    async (request, reply) => {
      await products.remove(request.params.id);
      return reply.code(204).send();
    },
  );
};
