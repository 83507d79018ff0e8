import * as contract from "@api-ref/contract";
import { Body, Controller, Get, Headers, HttpCode, Inject, Post } from "@nestjs/common";
import { JsonBody } from "../common/json-body.interceptor.ts";
import { AuthRepository } from "../data-access/data-access.module.ts";

@Controller("auth")
export class AuthController {
  constructor(@Inject(AuthRepository) private readonly auth: AuthRepository) {}

  @Post("register")
  @JsonBody()
  register(@Body({ schema: contract.RegisterBody }) body: contract.RegisterBody) {
    return this.auth.register(body);
  }

  @Post("login")
  @HttpCode(200)
  @JsonBody()
  login(@Body({ schema: contract.LoginBody }) body: contract.LoginBody) {
    return this.auth.login(body);
  }

  @Get("me")
  me(@Headers("authorization") authorization: string | undefined) {
    return this.auth.me(authorization);
  }
}
