// The column lists of the raw-SQL path (DATA_ACCESS=sql), aliased to the client's field names so that its rows go
// through the same mapping as the client's (dto.ts): one place decides how a row becomes JSON. Each list is written
// as field → column against the Prisma model's row type, so that a column the model gains and a list forgets (or
// the reverse) fails `pnpm typecheck` here, not a request at run time.
import { type Order, Prisma, type Product } from "@api-ref/db";
import type { UserRow } from "./dto.ts";

/** Every field of a row, each with the SQL that reads it (a column, or an expression). */
type ColumnsOf<Row> = { [Field in keyof Row]-?: string };

/** `column AS "field"` for each entry (just `field` where the two are the same), as one SQL fragment. */
const selectList = (columns: Record<string, string>) =>
  Prisma.raw(
    Object.entries(columns)
      .map(([field, column]) => (field === column ? field : `${column} AS "${field}"`))
      .join(", "),
  );

export const USER_COLUMNS = selectList({
  id: "id",
  email: "email",
  name: "name",
  role: "role::text",
  createdAt: "created_at",
  updatedAt: "updated_at",
} satisfies ColumnsOf<UserRow>);

export const PRODUCT_COLUMNS = selectList({
  id: "id",
  name: "name",
  description: "description",
  priceCents: "price_cents",
  stock: "stock",
  createdAt: "created_at",
  updatedAt: "updated_at",
} satisfies ColumnsOf<Product>);

export const ORDER_COLUMNS = selectList({
  id: "id",
  userId: "user_id",
  productId: "product_id",
  quantity: "quantity",
  unitPriceCents: "unit_price_cents",
  totalCents: "total_cents",
  status: "status::text",
  createdAt: "created_at",
  updatedAt: "updated_at",
} satisfies ColumnsOf<Order>);

/** `WHERE a AND b …`, or nothing. */
export const whereAll = (conditions: Prisma.Sql[]) =>
  conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;

/** The one row a count returns. */
export const countOf = (rows: { n: number }[]) => rows[0]?.n ?? 0;
