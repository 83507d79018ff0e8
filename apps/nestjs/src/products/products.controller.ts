import * as contract from "@api-ref/contract";
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from "@nestjs/common";
import type { ResponseHeaders } from "../common/http.ts";
import { JsonBody } from "../common/json-body.interceptor.ts";
import { ProductsRepository } from "../data-access/data-access.module.ts";

@Controller("products")
export class ProductsController {
  constructor(@Inject(ProductsRepository) private readonly products: ProductsRepository) {}

  @Get()
  list(@Query({ schema: contract.ListProductsQuery }) query: contract.ListProductsQuery) {
    return this.products.list(query);
  }

  @Post()
  @JsonBody()
  async create(
    @Body({ schema: contract.CreateProductBody }) body: contract.CreateProductBody,
    @Res({ passthrough: true }) res: ResponseHeaders,
  ) {
    const product = await this.products.create(body);
    res.header("location", `/products/${product.id}`);
    return product;
  }

  @Get(":id")
  get(@Param({ schema: contract.IdParams }) { id }: { id: string }) {
    return this.products.get(id);
  }

  @Patch(":id")
  @JsonBody()
  update(
    @Param({ schema: contract.IdParams }) { id }: { id: string },
    @Body({ schema: contract.UpdateProductBody }) body: contract.UpdateProductBody,
  ) {
    return this.products.update(id, body);
  }

  @Delete(":id")
  @HttpCode(204)
  async remove(@Param({ schema: contract.IdParams }) { id }: { id: string }) {
    await this.products.remove(id);
  }
}
