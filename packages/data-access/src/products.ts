import { type CreateProductBody, type ListProductsQuery, problem, type UpdateProductBody } from "@api-ref/contract";
import type { Prisma, PrismaClient } from "@api-ref/db";
import { toProduct } from "./dto.ts";
import { isForeignKeyViolation, isRecordNotFound, translate } from "./errors.ts";
import { answerList, containsInsensitive, findWindow, listWindow } from "./search.ts";

export const productNotFound = (id: string) => problem("notFound", `No product has the id ${id}.`);

export function productsRepository(prisma: PrismaClient) {
  return {
    async list(query: ListProductsQuery) {
      const { q, minPriceCents, maxPriceCents, inStock, sort } = query;
      const window = listWindow(query, sort);
      const where: Prisma.ProductWhereInput = {};
      if (q) where.name = containsInsensitive(q);
      if (minPriceCents !== undefined || maxPriceCents !== undefined)
        where.priceCents = { gte: minPriceCents, lte: maxPriceCents };
      if (inStock !== undefined) where.stock = inStock ? { gt: 0 } : { equals: 0 };
      return answerList(
        window,
        findWindow(window, where, (read) => prisma.product.findMany(read)),
        window.total ? prisma.product.count({ where }) : undefined,
        toProduct,
      );
    },

    async get(id: string) {
      const row = await prisma.product.findUnique({ where: { id } }).catch(translate);
      if (!row) throw productNotFound(id);
      return toProduct(row);
    },

    async create(body: CreateProductBody) {
      return toProduct(
        await prisma.product.create({ data: { ...body, description: body.description ?? null } }).catch(translate),
      );
    },

    async update(id: string, body: UpdateProductBody) {
      try {
        return toProduct(await prisma.product.update({ where: { id }, data: body }));
      } catch (error) {
        if (isRecordNotFound(error)) throw productNotFound(id);
        translate(error);
      }
    },

    async remove(id: string) {
      try {
        await prisma.product.delete({ where: { id }, select: { id: true } });
      } catch (error) {
        if (isRecordNotFound(error)) throw productNotFound(id);
        if (isForeignKeyViolation(error))
          throw problem("conflict", "Orders reference this product; it cannot be deleted.");
        translate(error);
      }
    },
  };
}
export type ProductsRepository = ReturnType<typeof productsRepository>;
