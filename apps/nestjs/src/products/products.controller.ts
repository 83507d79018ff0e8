import * as contract from "@api-ref/contract";
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from "@nestjs/common";
import { Public } from "../auth/public.decorator.ts";
import { Roles } from "../auth/roles.decorator.ts";
import type { ResponseHeaders } from "../common/http.ts";
import { ProductsRepository } from "../data-access/data-access.module.ts";
import { JsonBody } from "../edges/json-body.interceptor.ts";

/** Anyone reads products; admins write them. */
@Controller("products")
export class ProductsController {
  constructor(@Inject(ProductsRepository) private readonly products: ProductsRepository) {}

  @Get()
  @Public()
  list(@Query({ schema: contract.ListProductsQuery }) query: contract.ListProductsQuery) {
    return this.products.list(query);
  }

  @Post()
  @Roles("admin")
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
  @Public()
  get(@Param({ schema: contract.IdParams }) { id }: { id: string }) {
    return this.products.get(id);
  }

  @Patch(":id")
  @Roles("admin")
  @JsonBody()
  update(
    @Param({ schema: contract.IdParams }) { id }: { id: string },
    @Body({ schema: contract.UpdateProductBody }) body: contract.UpdateProductBody,
  ) {
    return this.products.update(id, body);
  }

  @Delete(":id")
  @Roles("admin")
  @HttpCode(204)
  async remove(@Param({ schema: contract.IdParams }) { id }: { id: string }) {
    await this.products.remove(id);
  }
}
