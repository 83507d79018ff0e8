export * from "./cursor.ts";
export * from "./openapi.ts";
export * from "./problems.ts";
export * from "./routes.ts";
export * from "./schemas.ts";
export * from "./security-headers.ts";
export * from "./unmatched.ts";
