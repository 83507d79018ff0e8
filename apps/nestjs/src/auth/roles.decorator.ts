import type { Role } from "@api-ref/contract";
import { SetMetadata } from "@nestjs/common";

export const ROLES_KEY = "roles";

/** The roles that may call a route (`@Roles("admin")`), checked by the global `RolesGuard`. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);
