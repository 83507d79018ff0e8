import * as contract from "@api-ref/contract";
import type { Principal } from "@api-ref/data-access";
import { Body, Controller, Get, HttpCode, Inject, Post, Res, UseGuards } from "@nestjs/common";
import type { ResponseHeaders } from "../common/http.ts";
import { AuthRepository } from "../data-access/data-access.module.ts";
import { JsonBody } from "../edges/json-body.interceptor.ts";
import { CurrentUser } from "./current-user.decorator.ts";
import { Public } from "./public.decorator.ts";
import { AuthThrottlerGuard } from "./throttler.guard.ts";

/**
 * Register and login are public and rate-limited, each counted apart (the throttler keys its count by handler);
 * `me` is any signed-in caller's. Token responses and the caller's own user carry
 * `cache-control: no-store` (RFC 6749 §5.1), set on the response once the repository has answered rather than with
 * `@Header()`: Nest sets that one before the pipes and the handler run, so a 400, 401 or 409 would carry it too.
 */
@Controller("auth")
export class AuthController {
  constructor(@Inject(AuthRepository) private readonly auth: AuthRepository) {}

  @Post("register")
  @Public()
  @UseGuards(AuthThrottlerGuard)
  @JsonBody()
  async register(
    @Body({ schema: contract.RegisterBody }) body: contract.RegisterBody,
    @Res({ passthrough: true }) res: ResponseHeaders,
  ) {
    const registered = await this.auth.register(body);
    res.header("cache-control", "no-store");
    return registered;
  }

  @Post("login")
  @Public()
  @UseGuards(AuthThrottlerGuard)
  @HttpCode(200)
  @JsonBody()
  async login(
    @Body({ schema: contract.LoginBody }) body: contract.LoginBody,
    @Res({ passthrough: true }) res: ResponseHeaders,
  ) {
    const token = await this.auth.login(body);
    res.header("cache-control", "no-store");
    return token;
  }

  @Get("me")
  async me(@CurrentUser() user: Principal, @Res({ passthrough: true }) res: ResponseHeaders) {
    const me = await this.auth.me(user);
    res.header("cache-control", "no-store");
    return me;
  }
}
