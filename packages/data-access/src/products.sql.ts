// Products' hot reads through Prisma's raw-SQL path (DATA_ACCESS=sql): the same answers as products.ts, the rest
// of the repository (writes, errors) is products.ts's own.
import type { ListProductsQuery } from "@api-ref/contract";
import { Prisma, type PrismaClient, type Product } from "@api-ref/db";
import { countOf, PRODUCT_COLUMNS, whereAll, windowSql } from "./columns.sql.ts";
import { toProduct } from "./dto.ts";
import { translate } from "./errors.ts";
import { productNotFound } from "./products.ts";
import { answerList, likePattern, listWindow } from "./search.ts";

export function productsSqlQueries(prisma: PrismaClient) {
  return {
    async list(query: ListProductsQuery) {
      const { q, minPriceCents, maxPriceCents, inStock, sort } = query;
      const window = listWindow(query, sort);
      const filters: Prisma.Sql[] = [];
      if (q) filters.push(Prisma.sql`name ILIKE ${likePattern(q)}`);
      if (minPriceCents !== undefined) filters.push(Prisma.sql`price_cents >= ${minPriceCents}`);
      if (maxPriceCents !== undefined) filters.push(Prisma.sql`price_cents <= ${maxPriceCents}`);
      if (inStock !== undefined) filters.push(inStock ? Prisma.sql`stock > 0` : Prisma.sql`stock = 0`);
      return answerList(
        window,
        prisma.$queryRaw<Product[]>(windowSql(Prisma.sql`SELECT ${PRODUCT_COLUMNS} FROM products`, filters, window)),
        window.total
          ? prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM products ${whereAll(filters)}`.then(
              countOf,
            )
          : undefined,
        toProduct,
      );
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
