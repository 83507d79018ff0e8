// Rows → the contract's JSON shapes. The password hash never leaves this module: the client omits it globally.
import type { Order as OrderDto, Product as ProductDto, User as UserDto } from "@api-ref/contract";
import type { Order, Product, User } from "@api-ref/db";

export type UserRow = Omit<User, "passwordHash">;

export const toUser = (u: UserRow): UserDto => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});

export const toProduct = (p: Product): ProductDto => ({
  id: p.id,
  name: p.name,
  description: p.description,
  priceCents: p.priceCents,
  stock: p.stock,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

export const toOrder = (o: Order & { user?: UserRow; product?: Product }): OrderDto => ({
  id: o.id,
  userId: o.userId,
  productId: o.productId,
  quantity: o.quantity,
  unitPriceCents: o.unitPriceCents,
  // BIGINT in the database; at most 1e10, well inside JSON's exact integers.
  totalCents: Number(o.totalCents),
  status: o.status,
  createdAt: o.createdAt.toISOString(),
  updatedAt: o.updatedAt.toISOString(),
  ...(o.user ? { user: toUser(o.user) } : {}),
  ...(o.product ? { product: toProduct(o.product) } : {}),
});
