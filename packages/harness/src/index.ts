export * from "./crud-mix.ts";
export * from "./http.ts";
export * from "./implementations.ts";
export * from "./launcher.ts";
export * from "./random.ts";
export * from "./sql.ts";
export * from "./token.ts";
export * from "./url-mode.ts";
