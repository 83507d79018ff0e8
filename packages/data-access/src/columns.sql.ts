// The column lists of the raw-SQL path (DATA_ACCESS=sql), aliased to the client's field names so that its rows go
// through the same mapping as the client's (dto.ts): one place decides how a row becomes JSON. Each list is written
// as field → column against the Prisma model's row type, so that a column the model gains and a list forgets (or
// the reverse) fails `pnpm typecheck` here, not a request at run time.
import { type CursorPosition, type CursorSort, SORT_KEYS } from "@api-ref/contract";
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
type SortField = (typeof SORT_KEYS)[CursorSort]["field"];
const SORT_COLUMNS: Record<SortField, string> = { createdAt: "created_at", priceCents: "price_cents", name: "name" };

/** search.ts's orderByOf in SQL: the sort's column, then id ascending; `column` names the sort key's column. */
const orderBySql = (sort: CursorSort, column: (field: SortField) => string) => {
  const { field, descending } = SORT_KEYS[sort];
  return Prisma.raw(`${column(field)} ${descending ? "DESC" : "ASC"}, id ASC`);
};

/** search.ts's seekRanges in SQL: at the cursor's key with a greater id, then past its key. */
function seekSql({ sort, after }: ListWindow & { after: CursorPosition }): [Prisma.Sql, Prisma.Sql] {
  const { field, descending } = SORT_KEYS[sort];
  const column = Prisma.raw(SORT_COLUMNS[field]);
  const key = field === "createdAt" ? Prisma.sql`${after.key}::timestamptz` : Prisma.sql`${after.key}`;
  const past = descending ? Prisma.sql`${column} < ${key}` : Prisma.sql`${column} > ${key}`;
  return [Prisma.sql`${column} = ${key} AND id > ${after.id}::uuid`, past];
}

/**
 * A list's window as one statement (search.ts's findWindow): `select` (its columns FROM its table) where `filters`
 * hold, in the sort's order, limit + 1 rows from the top or past a page number's offset. After a cursor, the union
 * of its two ranges, each read in order from where it starts, ordered again by the columns' output names.
 */
export function windowSql(select: Prisma.Sql, filters: Prisma.Sql[], window: ListWindow): Prisma.Sql {
  const order = orderBySql(window.sort, (field) => SORT_COLUMNS[field]);
  const take = window.limit + 1;
  if (!window.after) {
    return Prisma.sql`${select} ${whereAll(filters)} ORDER BY ${order} LIMIT ${take} OFFSET ${window.offset}`;
  }
  const [atKey, pastKey] = seekSql({ ...window, after: window.after });
  return Prisma.sql`(${select} ${whereAll([...filters, atKey])} ORDER BY ${order} LIMIT ${take})
    UNION ALL (${select} ${whereAll([...filters, pastKey])} ORDER BY ${order} LIMIT ${take})
    ORDER BY ${orderBySql(window.sort, (field) => `"${field}"`)} LIMIT ${take}`;
}
