import { createHash } from "node:crypto";
import {
  type CreateOrderBody,
  CUSTOMER_ORDER_STATUSES,
  type ListOrdersQuery,
  ORDER_TRANSITIONS,
  type Order as OrderDto,
  type OrderInclude,
  type OrderStatus,
  PROBLEMS,
  type Problem,
  ProblemError,
  type ProblemKind,
  problem,
} from "@api-ref/contract";
import type { Order, Prisma, PrismaClient } from "@api-ref/db";
import { toOrder } from "./dto.ts";
import { isForeignKeyViolation, isRecordNotFound, translate } from "./errors.ts";
import { forbidden, type Principal, unauthorized } from "./principal.ts";
import { answerList, findWindow, listWindow, NEWEST_FIRST } from "./search.ts";

export const orderNotFound = (id: string) => problem("notFound", `No order has the id ${id}.`);

function includeArg(include: OrderInclude[] | undefined) {
  if (!include?.length) return undefined;
  return {
    ...(include.includes("user") ? { user: { omit: { passwordHash: true } } } : {}),
    ...(include.includes("product") ? { product: true } : {}),
  } satisfies Prisma.OrderInclude;
}

export const unknownProduct = (id: string) =>
  problem("unprocessable", `No product has the id ${id}.`, {
    errors: [{ path: "body.productId", message: "does not name an existing record" }],
  });

/**
 * The orders a principal may reach, as a condition of the query itself: every order for an admin, only their own
 * for a customer, so that another customer's order finds nothing (a 404, as for an id that does not exist).
 */
export const reachableOrders = (principal: Principal): Prisma.OrderWhereInput =>
  principal.role === "admin" ? {} : { userId: principal.id };

/** The fingerprint an idempotency key is bound to: SHA-256 of the validated body in a fixed field order. */
export const requestHash = (body: CreateOrderBody) =>
  createHash("sha256")
    .update(JSON.stringify({ productId: body.productId.toLowerCase(), quantity: body.quantity }))
    .digest("hex");

/** An order to record: the body, and the caller it belongs to. */
export type NewOrder = CreateOrderBody & { userId: string };

export interface CreatedOrder {
  order: OrderDto;
  /** True when this response replays the one recorded for the idempotency key. */
  replayed: boolean;
}

function problemFromRecord(status: number, body: Problem): ProblemError {
  const kind = (Object.keys(PROBLEMS) as ProblemKind[]).find(
    (k) => PROBLEMS[k].type === body.type && PROBLEMS[k].status === status,
  );
  return new ProblemError(kind ?? "conflict", body.detail, body.errors ? { errors: body.errors } : {});
}

/** A client, or the one an interactive transaction hands its callback. */
export type Db = PrismaClient | Prisma.TransactionClient;

/**
 * Takes the stock for an order and records it, or returns nothing when no stock was taken (too little left, or
 * an unknown product). `atomic`: it does both in one statement, so that it needs no transaction of its own.
 */
export interface StockTaker {
  (db: Db, order: NewOrder): Promise<Order | undefined>;
  atomic: boolean;
}

/** Prisma's client API: a conditional decrement, then the insert (two statements, so in a transaction). */
const takeStockWithClient: StockTaker = Object.assign(
  async (db: Db, body: NewOrder) => {
    const [product] = await db.product.updateManyAndReturn({
      where: { id: body.productId, stock: { gte: body.quantity } },
      data: { stock: { decrement: body.quantity } },
      select: { priceCents: true },
    });
    if (!product) return undefined;
    return db.order.create({
      data: {
        userId: body.userId,
        productId: body.productId,
        quantity: body.quantity,
        unitPriceCents: product.priceCents,
        totalCents: product.priceCents * body.quantity,
      },
    });
  },
  { atomic: false },
);

/** Why no stock was taken: an unknown product is a 422 whatever the stock; only then is a shortage a 409. */
async function refuseOrder(db: Db, body: NewOrder): Promise<never> {
  const productRow = await db.product.findUnique({ where: { id: body.productId }, select: { stock: true } });
  if (!productRow) throw unknownProduct(body.productId);
  throw problem("conflict", `Only ${productRow.stock} left in stock; ${body.quantity} requested.`, {
    errors: [{ path: "body.quantity", message: "exceeds the stock left" }],
  });
}

/**
 * The orders' data access. `takeStock` is the one step the query path changes (DATA_ACCESS=sql passes
 * orders.sql.ts's single statement); the rules around it (refusals, idempotency, transitions) are these.
 */
export function ordersRepository(prisma: PrismaClient, takeStock: StockTaker = takeStockWithClient) {
  /** Takes the stock and records the order atomically: a conditional decrement never oversells. */
  async function placeOrder(body: NewOrder, idempotencyKey?: string): Promise<OrderDto> {
    const run = async (db: Db) => {
      const row = await takeStock(db, body);
      if (!row) return refuseOrder(db, body);
      const order = toOrder(row);
      if (idempotencyKey) {
        await db.idempotencyKey.update({
          where: { userId_key: { userId: body.userId, key: idempotencyKey } },
          data: { responseStatus: 201, responseBody: order, completedAt: new Date() },
        });
      }
      return order;
    };
    try {
      return await (idempotencyKey || !takeStock.atomic ? prisma.$transaction(run) : run(prisma));
    } catch (error) {
      // The caller's user was deleted after the request was authenticated: their token no longer names anyone.
      if (isForeignKeyViolation(error)) throw unauthorized("The token's user no longer exists.");
      translate(error);
    }
  }

  return {
    async list(query: ListOrdersQuery, principal: Principal) {
      const { status, userId, productId, include } = query;
      const window = listWindow(query, NEWEST_FIRST);
      const where: Prisma.OrderWhereInput = { status, userId, productId, AND: [reachableOrders(principal)] };
      return answerList(
        window,
        findWindow(window, where, (read) => prisma.order.findMany({ ...read, include: includeArg(include) })),
        window.total ? prisma.order.count({ where }) : undefined,
        toOrder,
      );
    },

    async get(id: string, include: OrderInclude[] | undefined, principal: Principal) {
      const row = await prisma.order
        .findFirst({ where: { id, ...reachableOrders(principal) }, include: includeArg(include) })
        .catch(translate);
      if (!row) throw orderNotFound(id);
      return toOrder(row);
    },

    /**
     * Places an order. With an idempotency key, the first request claims the key; a retry with the same body
     * replays the recorded response (201 or the 409/422 problem), a different body is a 422, and a retry
     * while the first is still running is a 409. Keys live in the database, so they hold across processes.
     */
    async create(body: CreateOrderBody, principal: Principal, idempotencyKey?: string): Promise<CreatedOrder> {
      const order: NewOrder = { ...body, userId: principal.id };
      if (!idempotencyKey) return { order: await placeOrder(order), replayed: false };
      const hash = requestHash(body);
      // A key is the caller's own: another user's same key is another row, never a replay of their answer.
      const keyOfCaller = { userId_key: { userId: principal.id, key: idempotencyKey } };
      const claimed = await prisma.idempotencyKey
        .createMany({ data: [{ userId: principal.id, key: idempotencyKey, requestHash: hash }], skipDuplicates: true })
        .catch(translate);
      if (claimed.count === 0) {
        const record = await prisma.idempotencyKey.findUnique({ where: keyOfCaller }).catch(translate);
        if (!record) throw problem("conflict", "The idempotency key is being released; retry.");
        if (record.requestHash !== hash) {
          throw problem("unprocessable", "This idempotency key was used with a different request body.");
        }
        if (record.responseStatus === null)
          throw problem("conflict", "A request with this idempotency key is still in progress.");
        if (record.responseStatus === 201) return { order: record.responseBody as OrderDto, replayed: true };
        throw problemFromRecord(record.responseStatus, record.responseBody as Problem);
      }
      try {
        return { order: await placeOrder(order, idempotencyKey), replayed: false };
      } catch (error) {
        if (error instanceof ProblemError && (error.status === 409 || error.status === 422)) {
          // A refusal is the answer to this request: record it so that a retry gets the same one.
          await prisma.idempotencyKey
            .update({
              where: keyOfCaller,
              data: { responseStatus: error.status, responseBody: error.toJSON(), completedAt: new Date() },
            })
            .catch(translate);
        } else {
          // Nothing was decided (database down, a bug): free the key so that a retry can succeed.
          await prisma.idempotencyKey.delete({ where: keyOfCaller }).catch(() => {});
        }
        throw error;
      }
    },

    /**
     * Moves an order along pending → shipped → delivered, or pending → cancelled (which restocks). A customer may only
     * cancel, and only their own order: any other status is a 403 whichever order it names.
     */
    async updateStatus(id: string, status: OrderStatus, principal: Principal) {
      if (principal.role !== "admin" && !CUSTOMER_ORDER_STATUSES.includes(status)) {
        throw forbidden(`Only an admin may mark an order ${status}; a customer may cancel their own pending order.`);
      }
      const reachable = reachableOrders(principal);
      const from = (Object.keys(ORDER_TRANSITIONS) as OrderStatus[]).filter((s) =>
        ORDER_TRANSITIONS[s].includes(status),
      );
      try {
        return await prisma.$transaction(async (tx) => {
          const [order] = await tx.order.updateManyAndReturn({
            where: { id, status: { in: from }, ...reachable },
            data: { status },
          });
          if (!order) {
            const current = await tx.order.findFirst({ where: { id, ...reachable }, select: { status: true } });
            if (!current) throw orderNotFound(id);
            throw problem("conflict", `An order that is ${current.status} cannot become ${status}.`, {
              errors: [{ path: "body.status", message: `not allowed from ${current.status}` }],
            });
          }
          if (status === "cancelled") {
            await tx.product.update({
              where: { id: order.productId },
              data: { stock: { increment: order.quantity } },
              select: { id: true },
            });
          }
          return toOrder(order);
        });
      } catch (error) {
        translate(error);
      }
    },

    /** Deletes an order; a pending one gives its quantity back to the product, in the same transaction. */
    async remove(id: string) {
      try {
        await prisma.$transaction(async (tx) => {
          const order = await tx.order.delete({ where: { id } });
          if (order.status === "pending") {
            await tx.product.update({
              where: { id: order.productId },
              data: { stock: { increment: order.quantity } },
              select: { id: true },
            });
          }
        });
      } catch (error) {
        if (isRecordNotFound(error)) throw orderNotFound(id);
        translate(error);
      }
    },
  };
}
export type OrdersRepository = ReturnType<typeof ordersRepository>;
