import type { CreateOrderBody, ListOrdersQuery, OrderInclude, OrderStatus } from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Inject, Injectable } from "@nestjs/common";
import { DATABASE } from "../database/database.module.ts";

/** Orders, over the shared data access: stock taken atomically, idempotency keys kept in the database. */
@Injectable()
export class OrdersService {
  constructor(@Inject(DATABASE) private readonly database: DataAccess) {}

  list(query: ListOrdersQuery) {
    return this.database.orders.list(query);
  }

  get(id: string, include?: OrderInclude[]) {
    return this.database.orders.get(id, include);
  }

  create(body: CreateOrderBody, idempotencyKey?: string) {
    return this.database.orders.create(body, idempotencyKey);
  }

  updateStatus(id: string, status: OrderStatus) {
    return this.database.orders.updateStatus(id, status);
  }

  remove(id: string) {
    return this.database.orders.remove(id);
  }
}
