import * as contract from "@api-ref/contract";
import type { Principal } from "@api-ref/data-access";
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from "@nestjs/common";
import { CurrentUser } from "../auth/current-user.decorator.ts";
import { Roles } from "../auth/roles.decorator.ts";
import { RequestHeaders, type ResponseHeaders } from "../common/http.ts";
import { OrdersRepository } from "../data-access/data-access.module.ts";
import { JsonBody } from "../edges/json-body.interceptor.ts";

/**
 * A customer places orders for themself and reaches only their own (the repository's queries take the caller: 404
 * for another's, a 403 for a status other than `cancelled`); deleting one is an admin's.
 */
@Controller("orders")
export class OrdersController {
  constructor(@Inject(OrdersRepository) private readonly orders: OrdersRepository) {}

  @Get()
  list(@Query({ schema: contract.ListOrdersQuery }) query: contract.ListOrdersQuery, @CurrentUser() user: Principal) {
    return this.orders.list(query, user);
  }

  @Post()
  @JsonBody()
  async create(
    @RequestHeaders({ schema: contract.CreateOrderHeaders }) headers: contract.CreateOrderHeaders,
    @Body({ schema: contract.CreateOrderBody }) body: contract.CreateOrderBody,
    @CurrentUser() user: Principal,
    @Res({ passthrough: true }) res: ResponseHeaders,
  ) {
    const { order } = await this.orders.create(body, user, headers["idempotency-key"]);
    res.header("location", `/orders/${order.id}`);
    return order;
  }

  @Get(":id")
  get(
    @Param({ schema: contract.IdParams }) { id }: { id: string },
    @Query({ schema: contract.GetOrderQuery }) query: contract.GetOrderQuery,
    @CurrentUser() user: Principal,
  ) {
    return this.orders.get(id, query.include, user);
  }

  @Patch(":id")
  @JsonBody()
  update(
    @Param({ schema: contract.IdParams }) { id }: { id: string },
    @Body({ schema: contract.UpdateOrderBody }) body: contract.UpdateOrderBody,
    @CurrentUser() user: Principal,
  ) {
    return this.orders.updateStatus(id, body.status, user);
  }

  @Delete(":id")
  @Roles("admin")
  @HttpCode(204)
  async remove(@Param({ schema: contract.IdParams }) { id }: { id: string }) {
    await this.orders.remove(id);
  }
}
