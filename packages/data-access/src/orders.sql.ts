// Orders' hot paths through Prisma's raw-SQL path (DATA_ACCESS=sql): get and list (with their includes) and the
// step of order creation that takes the stock. The rules around them (refusals, idempotency, transitions, writes)
// are orders.ts's own.
import type { ListOrdersQuery, OrderInclude } from "@api-ref/contract";
import { type Order, Prisma, type PrismaClient, type Product } from "@api-ref/db";
import { countOf, ORDER_COLUMNS, PRODUCT_COLUMNS, USER_COLUMNS, whereAll, windowSql } from "./columns.sql.ts";
import { toOrder, type UserRow } from "./dto.ts";
import { translate } from "./errors.ts";
import { type Db, type NewOrder, orderNotFound, type StockTaker } from "./orders.ts";
import type { Principal } from "./principal.ts";
import { answerList, listWindow, NEWEST_FIRST } from "./search.ts";

/**
 * The stock taken and the order recorded in one statement: atomic by itself (no BEGIN/COMMIT, one round trip), the
 * conditional decrement never oversells, and the insert happens only when there was enough stock.
 */
export const takeStockInOneStatement: StockTaker = Object.assign(
  async (db: Db, { userId, productId, quantity }: NewOrder) => {
    const [row] = await db.$queryRaw<Order[]>`WITH taken AS (
        UPDATE products SET stock = stock - ${quantity}, updated_at = now()
        WHERE id = ${productId}::uuid AND stock >= ${quantity} RETURNING price_cents
      )
      INSERT INTO orders (user_id, product_id, quantity, unit_price_cents, total_cents)
      SELECT ${userId}::uuid, ${productId}::uuid, ${quantity}, price_cents, price_cents::bigint * ${quantity} FROM taken
      RETURNING ${ORDER_COLUMNS}`;
    return row;
  },
  { atomic: true },
);

type OrderWith = Order & { user?: UserRow; product?: Product };

/** orders.ts's reachableOrders in SQL: a customer's statements carry `user_id = <their id>`; an admin's nothing. */
const ownOrders = (principal: Principal) =>
  principal.role === "admin" ? [] : [Prisma.sql`user_id = ${principal.id}::uuid`];

export function ordersSqlQueries(prisma: PrismaClient) {
  /** The users and products the rows refer to, by id, when included (Prisma's `query` relation strategy, in SQL). */
  async function withRelations(rows: Order[], include: OrderInclude[] | undefined): Promise<OrderWith[]> {
    if (!include?.length || rows.length === 0) return rows;
    const ids = (key: "userId" | "productId") => [...new Set(rows.map((r) => r[key]))];
    const [users, products] = await Promise.all([
      include.includes("user")
        ? prisma.$queryRaw<UserRow[]>`SELECT ${USER_COLUMNS} FROM users WHERE id = ANY(${ids("userId")}::uuid[])`
        : [],
      include.includes("product")
        ? prisma.$queryRaw<
            Product[]
          >`SELECT ${PRODUCT_COLUMNS} FROM products WHERE id = ANY(${ids("productId")}::uuid[])`
        : [],
    ]);
    const usersById = new Map(users.map((u) => [u.id, u]));
    const productsById = new Map(products.map((p) => [p.id, p]));
    return rows.map((r) => ({
      ...r,
      ...(include.includes("user") ? { user: usersById.get(r.userId) } : {}),
      ...(include.includes("product") ? { product: productsById.get(r.productId) } : {}),
    }));
  }

  return {
    async list(query: ListOrdersQuery, principal: Principal) {
      const { status, userId, productId, include } = query;
      const window = listWindow(query, NEWEST_FIRST);
      const filters: Prisma.Sql[] = ownOrders(principal);
      if (status !== undefined) filters.push(Prisma.sql`status = ${status}::order_status`);
      if (userId !== undefined) filters.push(Prisma.sql`user_id = ${userId}::uuid`);
      if (productId !== undefined) filters.push(Prisma.sql`product_id = ${productId}::uuid`);
      const rows = prisma.$queryRaw<Order[]>(
        windowSql(Prisma.sql`SELECT ${ORDER_COLUMNS} FROM orders`, filters, window),
      );
      return answerList(
        window,
        rows.then((found) => withRelations(found, include)),
        window.total
          ? prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM orders ${whereAll(filters)}`.then(countOf)
          : undefined,
        toOrder,
      );
    },

    async get(id: string, include: OrderInclude[] | undefined, principal: Principal) {
      const where = whereAll([Prisma.sql`id = ${id}::uuid`, ...ownOrders(principal)]);
      try {
        const [row] = await prisma.$queryRaw<Order[]>`SELECT ${ORDER_COLUMNS} FROM orders ${where}`;
        if (!row) throw orderNotFound(id);
        const [order] = await withRelations([row], include);
        return toOrder(order as OrderWith);
      } catch (error) {
        translate(error);
      }
    },
  };
}
