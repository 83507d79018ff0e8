import type { Role } from "@api-ref/contract";
import { forbidden } from "@api-ref/data-access";
import { type CanActivate, type ExecutionContext, Injectable } from "@nestjs/common";
import { Reflector } from "@nestjs/core";
import type { AuthenticatedRequest } from "./authenticated-request.ts";
import { ROLES_KEY } from "./roles.decorator.ts";

/**
 * Bound globally after `AuthGuard` (the order of the `APP_GUARD` providers), so it reads the caller that guard set:
 * a route with `@Roles(…)` is the contract's 403 for any other role — still before the body is read or validated.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!roles) return true;
    const { user } = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // The data access's 403 (with `www-authenticate: Bearer error="insufficient_scope"`), not Nest's
    // ForbiddenException.
    if (!user || !roles.includes(user.role)) throw forbidden(`This needs the ${roles.join(" or ")} role.`);
    return true;
  }
}
