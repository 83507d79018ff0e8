import * as contract from "@api-ref/contract";
import type { Principal } from "@api-ref/data-access";
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from "@nestjs/common";
import { CurrentUser } from "../auth/current-user.decorator.ts";
import { Roles } from "../auth/roles.decorator.ts";
import type { ResponseHeaders } from "../common/http.ts";
import { UsersRepository } from "../data-access/data-access.module.ts";
import { JsonBody } from "../edges/json-body.interceptor.ts";

/** Admins list and create users; a customer reaches only themself (the repository's query answers 404 for others). */
@Controller("users")
export class UsersController {
  constructor(@Inject(UsersRepository) private readonly users: UsersRepository) {}

  @Get()
  @Roles("admin")
  list(@Query({ schema: contract.ListUsersQuery }) query: contract.ListUsersQuery) {
    return this.users.list(query);
  }

  @Post()
  @Roles("admin")
  @JsonBody()
  async create(
    @Body({ schema: contract.CreateUserBody }) body: contract.CreateUserBody,
    @Res({ passthrough: true }) res: ResponseHeaders,
  ) {
    const user = await this.users.create(body);
    res.header("location", `/users/${user.id}`);
    return user;
  }

  @Get(":id")
  get(@Param({ schema: contract.IdParams }) { id }: { id: string }, @CurrentUser() user: Principal) {
    return this.users.get(id, user);
  }

  @Patch(":id")
  @JsonBody()
  update(
    @Param({ schema: contract.IdParams }) { id }: { id: string },
    @Body({ schema: contract.UpdateUserBody }) body: contract.UpdateUserBody,
    @CurrentUser() user: Principal,
  ) {
    return this.users.update(id, body, user);
  }

  @Delete(":id")
  @HttpCode(204)
  async remove(@Param({ schema: contract.IdParams }) { id }: { id: string }, @CurrentUser() user: Principal) {
    await this.users.remove(id, user);
  }
}
