// The column lists of the raw-SQL path (DATA_ACCESS=sql), aliased to the client's field names so that its rows go
// through the same mapping as the client's (dto.ts): one place decides how a row becomes JSON.
import { Prisma } from "@api-ref/db";

export const USER_COLUMNS = Prisma.raw(`id, email, name, created_at AS "createdAt", updated_at AS "updatedAt"`);
export const PRODUCT_COLUMNS = Prisma.raw(
  `id, name, description, price_cents AS "priceCents", stock, created_at AS "createdAt", updated_at AS "updatedAt"`,
);
export const ORDER_COLUMNS = Prisma.raw(
  `id, user_id AS "userId", product_id AS "productId", quantity, unit_price_cents AS "unitPriceCents", ` +
    `total_cents AS "totalCents", status::text AS status, created_at AS "createdAt", updated_at AS "updatedAt"`,
);

/** `WHERE a AND b …`, or nothing. */
export const whereAll = (conditions: Prisma.Sql[]) =>
  conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;

/** The one row a count returns. */
export const countOf = (rows: { n: number }[]) => rows[0]?.n ?? 0;
