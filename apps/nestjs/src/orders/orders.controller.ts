import * as contract from "@api-ref/contract";
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from "@nestjs/common";
import { RequestHeaders, type ResponseHeaders } from "../common/http.ts";
import { JsonBody } from "../common/json-body.interceptor.ts";
import { OrdersRepository } from "../data-access/data-access.module.ts";

@Controller("orders")
export class OrdersController {
  constructor(@Inject(OrdersRepository) private readonly orders: OrdersRepository) {}

  @Get()
  list(@Query({ schema: contract.ListOrdersQuery }) query: contract.ListOrdersQuery) {
    return this.orders.list(query);
  }

  @Post()
  @JsonBody()
  async create(
    @RequestHeaders({ schema: contract.CreateOrderHeaders }) headers: contract.CreateOrderHeaders,
    @Body({ schema: contract.CreateOrderBody }) body: contract.CreateOrderBody,
    @Res({ passthrough: true }) res: ResponseHeaders,
  ) {
    const { order } = await this.orders.create(body, headers["idempotency-key"]);
    res.header("location", `/orders/${order.id}`);
    return order;
  }

  @Get(":id")
  get(
    @Param({ schema: contract.IdParams }) { id }: { id: string },
    @Query({ schema: contract.GetOrderQuery }) query: contract.GetOrderQuery,
  ) {
    return this.orders.get(id, query.include);
  }

  @Patch(":id")
  @JsonBody()
  update(
    @Param({ schema: contract.IdParams }) { id }: { id: string },
    @Body({ schema: contract.UpdateOrderBody }) body: contract.UpdateOrderBody,
  ) {
    return this.orders.updateStatus(id, body.status);
  }

  @Delete(":id")
  @HttpCode(204)
  async remove(@Param({ schema: contract.IdParams }) { id }: { id: string }) {
    await this.orders.remove(id);
  }
}
