import { LoginBody, RegisterBody } from "@api-ref/contract";
import { Body, Controller, Get, Headers, HttpCode, Inject, Post } from "@nestjs/common";
import { JsonBody } from "../common/json-body.interceptor.ts";
import { AuthRepository } from "../data-access/data-access.module.ts";

@Controller("auth")
export class AuthController {
  constructor(@Inject(AuthRepository) private readonly auth: AuthRepository) {}

  @Post("register")
  @JsonBody()
  register(@Body({ schema: RegisterBody }) body: RegisterBody) {
    return this.auth.register(body);
  }

  @Post("login")
  @HttpCode(200)
  @JsonBody()
  login(@Body({ schema: LoginBody }) body: LoginBody) {
    return this.auth.login(body);
  }

  @Get("me")
  me(@Headers("authorization") authorization: string | undefined) {
    return this.auth.me(authorization);
  }
}
