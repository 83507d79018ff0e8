import * as contract from "@api-ref/contract";
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from "@nestjs/common";
import type { ResponseHeaders } from "../common/http.ts";
import { JsonBody } from "../common/json-body.interceptor.ts";
import { UsersRepository } from "../data-access/data-access.module.ts";

@Controller("users")
export class UsersController {
  constructor(@Inject(UsersRepository) private readonly users: UsersRepository) {}

  @Get()
  list(@Query({ schema: contract.ListUsersQuery }) query: contract.ListUsersQuery) {
    return this.users.list(query);
  }

  @Post()
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
  get(@Param({ schema: contract.IdParams }) { id }: { id: string }) {
    return this.users.get(id);
  }

  @Patch(":id")
  @JsonBody()
  update(
    @Param({ schema: contract.IdParams }) { id }: { id: string },
    @Body({ schema: contract.UpdateUserBody }) body: contract.UpdateUserBody,
  ) {
    return this.users.update(id, body);
  }

  @Delete(":id")
  @HttpCode(204)
  async remove(@Param({ schema: contract.IdParams }) { id }: { id: string }) {
    await this.users.remove(id);
  }
}
