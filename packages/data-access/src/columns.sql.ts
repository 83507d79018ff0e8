// The column lists of the raw-SQL path (DATA_ACCESS=sql), aliased to the client's field names so that its rows go
// through the same mapping as the client's (dto.ts): one place decides how a row becomes JSON. Each list is written
// as field → column against the Prisma model's row type, so that a column the model gains and a list forgets (or
// the reverse) fails `pnpm typecheck` here, not a request at run time.
import { type CursorSort, SORT_KEYS } from "@api-ref/contract";
import { type Order, Prisma, type Product } from "@api-ref/db";
import type { UserRow } from "./dto.ts";
import type { ListWindow } from "./search.ts";

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

/** The column each sort key reads. */
const SORT_COLUMNS = { createdAt: "created_at", priceCents: "price_cents", name: "name" } as const;

/** search.ts's orderByOf in SQL: the sort's column, then id ascending. */
export const orderBySql = (sort: CursorSort) => {
  const { field, descending } = SORT_KEYS[sort];
  return Prisma.raw(`${SORT_COLUMNS[field]} ${descending ? "DESC" : "ASC"}, id ASC`);
};

/** search.ts's afterWhere in SQL: past the cursor's key, or at it with a greater id (the bound starts the scan). */
export function afterSql({ sort, after }: ListWindow): Prisma.Sql[] {
  if (!after) return [];
  const { field, descending } = SORT_KEYS[sort];
  const column = Prisma.raw(SORT_COLUMNS[field]);
  const key = field === "createdAt" ? Prisma.sql`${after.key}::timestamptz` : Prisma.sql`${after.key}`;
  return descending
    ? [Prisma.sql`${column} <= ${key}`, Prisma.sql`(${column} < ${key} OR id > ${after.id}::uuid)`]
    : [Prisma.sql`${column} >= ${key}`, Prisma.sql`(${column} > ${key} OR id > ${after.id}::uuid)`];
}

/** search.ts's takeWindow in SQL: one row more than the page, after `offset` rows. */
export const limitSql = ({ limit, offset }: ListWindow) => Prisma.sql`LIMIT ${limit + 1} OFFSET ${offset}`;
