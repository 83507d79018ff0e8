import { type CanActivate, type ExecutionContext, Inject, Injectable } from "@nestjs/common";
import { Reflector } from "@nestjs/core";
import { AuthRepository } from "../data-access/data-access.module.ts";
import type { AuthenticatedRequest } from "./authenticated-request.ts";
import { IS_PUBLIC_KEY } from "./public.decorator.ts";

/**
 * Bound globally (`APP_GUARD`), so every route needs a signed-in caller unless it is `@Public()`. Guards run after
 * routing and before every interceptor and pipe: a 401 comes before the body is read (`@JsonBody()`) and before
 * validation, as the contract's order of checks wants.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(AuthRepository) private readonly auth: AuthRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // The data access verifies the token and reads the user's current role; it throws the contract's 401, with its
    // `www-authenticate` challenge, for anything else.
    request.user = await this.auth.authenticate(request.headers.authorization);
    return true;
  }
}
