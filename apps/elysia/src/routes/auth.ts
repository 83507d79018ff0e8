import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { Elysia } from "elysia";
import { jsonBody } from "../edges/json-body.ts";
import { authorization } from "../plugins/auth.ts";
import { type RateLimitOptions, rateLimit } from "../plugins/rate-limit.ts";

/** Tokens and the caller's own user are never stored by a cache (RFC 6749 §5.1). */
const NO_STORE = "no-store";

/**
 * `/auth/register`, `/auth/login` (anyone, each limited per client address: `rateLimited`, a group's hook, so that it
 * runs before the route's `json` body read), `/auth/me` (the signed-in caller).
 */
export const authRoutes = ({ auth }: DataAccess, limits: RateLimitOptions) =>
  new Elysia({ prefix: "/auth" })
    .use(jsonBody)
    .use(authorization({ auth }))
    .use(rateLimit(limits))
    .group("", { rateLimited: true }, (limited) =>
      limited
        .post(
          "/register",
          async ({ body, set, status }) => {
            const registered = await auth.register(body);
            set.headers["cache-control"] = NO_STORE;
            return status(201, registered);
          },
          { json: true, body: contract.RegisterBody },
        )
        .post(
          "/login",
          async ({ body, set }) => {
            const token = await auth.login(body);
            set.headers["cache-control"] = NO_STORE;
            return token;
          },
          { json: true, body: contract.LoginBody },
        ),
    )
    .group("", { auth: "user" }, (signedIn) =>
      signedIn.get("/me", async ({ principal, set }) => {
        const user = await auth.me(principal);
        set.headers["cache-control"] = NO_STORE;
        return user;
      }),
    );
