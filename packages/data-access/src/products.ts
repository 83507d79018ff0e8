import {
  type CreateProductBody,
  type ListProductsQuery,
  type ProductSort,
  problem,
  type UpdateProductBody,
} from "@api-ref/contract";
import type { Prisma, PrismaClient } from "@api-ref/db";
import { toProduct } from "./dto.ts";
import { isForeignKeyViolation, isRecordNotFound, translate } from "./errors.ts";
import { containsInsensitive, pageOf, pageWindow } from "./search.ts";

const SORTS: Record<ProductSort, Prisma.ProductOrderByWithRelationInput[]> = {
  createdAt: [{ createdAt: "asc" }, { id: "asc" }],
  "-createdAt": [{ createdAt: "desc" }, { id: "asc" }],
  priceCents: [{ priceCents: "asc" }, { id: "asc" }],
  "-priceCents": [{ priceCents: "desc" }, { id: "asc" }],
  name: [{ name: "asc" }, { id: "asc" }],
};

export const productNotFound = (id: string) => problem("notFound", `No product has the id ${id}.`);

export function productsRepository(prisma: PrismaClient) {
  return {
    async list({ page: pageNumber, limit, q, minPriceCents, maxPriceCents, inStock, sort }: ListProductsQuery) {
      const where: Prisma.ProductWhereInput = {};
      if (q) where.name = containsInsensitive(q);
      if (minPriceCents !== undefined || maxPriceCents !== undefined)
        where.priceCents = { gte: minPriceCents, lte: maxPriceCents };
      if (inStock !== undefined) where.stock = inStock ? { gt: 0 } : { equals: 0 };
      return pageOf(
        pageNumber,
        limit,
        prisma.product.findMany({ where, orderBy: SORTS[sort], ...pageWindow(pageNumber, limit) }),
        prisma.product.count({ where }),
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
