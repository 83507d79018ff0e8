import { SetMetadata } from "@nestjs/common";

export const IS_PUBLIC_KEY = "isPublic";

/** A route anyone may call: the global `AuthGuard` lets it through without a token (Nest's "Authentication" recipe). */
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);
