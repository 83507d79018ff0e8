import type { Principal } from "@api-ref/data-access";
import { createParamDecorator, type ExecutionContext } from "@nestjs/common";
import type { AuthenticatedRequest } from "./authenticated-request.ts";

/** The caller `AuthGuard` authenticated, as a handler parameter: `me(@CurrentUser() user: Principal)`. */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const { user } = context.switchToHttp().getRequest<AuthenticatedRequest>();
  // Only a `@Public()` route has no caller, and taking one there is a bug in the route, not a client error.
  if (!user) throw new Error("@CurrentUser() on a route AuthGuard does not guard (a @Public() one)");
  return user;
});
