import Router from "@koa/router";

/** Every router of the app: strict paths, as the contract says (`/Users` and `/users/` are other paths: 404). */
export const strictRouter = () => new Router({ strict: true, sensitive: true });
