import * as contract from "@api-ref/contract";
import type { FastifyPluginAsyncZod } from "@fastify/type-provider-zod";
import type { preValidationHookHandler } from "fastify";
import { callerOf } from "../plugins/app/auth.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** POST /orders: the validated `idempotency-key` header, if any. */
    idempotencyKey: string | undefined;
  }
}

/**
 * Fastify validates params, body, query and then headers; the contract checks headers before the body. A
 * preValidation hook runs before schema validation, so the `idempotency-key` header is checked there.
 */
const idempotencyKeyHeader: preValidationHookHandler = async (request) => {
  const headers = contract.parseRequestPart(contract.CreateOrderHeaders, request.headers, "headers");
  request.idempotencyKey = headers["idempotency-key"];
};

/**
 * Anyone signed in places orders (as themself) and reaches orders, a customer only their own (the data access's
 * queries; the data access also refuses a customer any status but cancelled); only admins delete them.
 */
export const orderRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { orders } = fastify.dataAccess;
  fastify.decorateRequest("idempotencyKey", undefined);

  fastify.get(
    "/",
    {
      onRequest: [fastify.authenticate],
      schema: { querystring: contract.ListOrdersQuery, response: { 200: contract.OrderList } },
    },
    (request) => orders.list(request.query, callerOf(request)),
  );

  fastify.post(
    "/",
    {
      onRequest: [fastify.authenticate],
      preValidation: idempotencyKeyHeader,
      schema: { body: contract.CreateOrderBody, response: { 201: contract.Order } },
    },
    async (request, reply) => {
      const { order } = await orders.create(request.body, callerOf(request), request.idempotencyKey);
      return reply.code(201).header("location", `/orders/${order.id}`).send(order);
    },
  );

  fastify.get(
    "/:id",
    {
      onRequest: [fastify.authenticate],
      schema: { params: contract.IdParams, querystring: contract.GetOrderQuery, response: { 200: contract.Order } },
    },
    (request) => orders.get(request.params.id, request.query.include, callerOf(request)),
  );

  fastify.patch(
    "/:id",
    {
      onRequest: [fastify.authenticate],
      schema: { params: contract.IdParams, body: contract.UpdateOrderBody, response: { 200: contract.Order } },
    },
    (request) => orders.updateStatus(request.params.id, request.body.status, callerOf(request)),
  );

  fastify.delete(
    "/:id",
    { onRequest: [fastify.authenticate, fastify.requireAdmin], schema: { params: contract.IdParams } },
    async (request, reply) => {
      await orders.remove(request.params.id);
      return reply.code(204).send();
    },
  );
};
