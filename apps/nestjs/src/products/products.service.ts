import type { CreateProductBody, ListProductsQuery, UpdateProductBody } from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Inject, Injectable } from "@nestjs/common";
import { DATABASE } from "../database/database.module.ts";

/** Products, over the shared data access. */
@Injectable()
export class ProductsService {
  constructor(@Inject(DATABASE) private readonly database: DataAccess) {}

  list(query: ListProductsQuery) {
    return this.database.products.list(query);
  }

  get(id: string) {
    return this.database.products.get(id);
  }

  create(body: CreateProductBody) {
    return this.database.products.create(body);
  }

  update(id: string, body: UpdateProductBody) {
    return this.database.products.update(id, body);
  }

  remove(id: string) {
    return this.database.products.remove(id);
  }
}
