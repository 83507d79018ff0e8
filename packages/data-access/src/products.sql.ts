// Products' hot reads through Prisma's raw-SQL path (DATA_ACCESS=sql): the same answers as products.ts, the rest
// of the repository (writes, errors) is products.ts's own.
import type { ListProductsQuery, ProductSort } from "@api-ref/contract";
import { Prisma, type PrismaClient, type Product } from "@api-ref/db";
import { countOf, PRODUCT_COLUMNS, whereAll } from "./columns.sql.ts";
import { page, toProduct } from "./dto.ts";
import { translate } from "./errors.ts";
import { productNotFound } from "./products.ts";
import { likePattern } from "./search.ts";

/** products.ts's SORTS, in SQL. */
const SORTS: Record<ProductSort, Prisma.Sql> = {
  createdAt: Prisma.raw("created_at ASC, id ASC"),
  "-createdAt": Prisma.raw("created_at DESC, id ASC"),
  priceCents: Prisma.raw("price_cents ASC, id ASC"),
  "-priceCents": Prisma.raw("price_cents DESC, id ASC"),
  name: Prisma.raw("name ASC, id ASC"),
};

export function productsSqlQueries(prisma: PrismaClient) {
  return {
    async list({ page: pageNumber, limit, q, minPriceCents, maxPriceCents, inStock, sort }: ListProductsQuery) {
      const conditions: Prisma.Sql[] = [];
      if (q) conditions.push(Prisma.sql`name ILIKE ${likePattern(q)}`);
      if (minPriceCents !== undefined) conditions.push(Prisma.sql`price_cents >= ${minPriceCents}`);
      if (maxPriceCents !== undefined) conditions.push(Prisma.sql`price_cents <= ${maxPriceCents}`);
      if (inStock !== undefined) conditions.push(inStock ? Prisma.sql`stock > 0` : Prisma.sql`stock = 0`);
      const where = whereAll(conditions);
      try {
        const [rows, count] = await Promise.all([
          prisma.$queryRaw<Product[]>`SELECT ${PRODUCT_COLUMNS} FROM products ${where}
            ORDER BY ${SORTS[sort]} LIMIT ${limit} OFFSET ${(pageNumber - 1) * limit}`,
          prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM products ${where}`,
        ]);
        return page(rows.map(toProduct), countOf(count), pageNumber, limit);
      } catch (error) {
        translate(error);
      }
    },

    async get(id: string) {
      const [row] = await prisma.$queryRaw<
        Product[]
      >`SELECT ${PRODUCT_COLUMNS} FROM products WHERE id = ${id}::uuid`.catch(translate);
      if (!row) throw productNotFound(id);
      return toProduct(row);
    },
  };
}
