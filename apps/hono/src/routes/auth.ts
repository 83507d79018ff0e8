import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { Hono } from "hono";
import { jsonBody } from "../edges/json-body.ts";
import type { AppEnv } from "../env.ts";
import { authenticate } from "../middleware/auth.ts";
import { type AuthRateLimitOptions, authRateLimit } from "../middleware/rate-limit.ts";
import { body } from "../middleware/validate.ts";

/** Tokens and the caller's own user are never to be cached (RFC 6749 §5.1); only on success: a problem has none. */
const NO_STORE = { "cache-control": "no-store" };

/**
 * `/auth/register`, `/auth/login`, `/auth/me`, mounted with `app.route("/auth", authRoutes(dataAccess, limits))`.
 * Register and login each have a rate limiter of their own (counted apart), before `jsonBody`: past the limit, the
 * 429 comes before anything about the request is read.
 */
export const authRoutes = (dataAccess: DataAccess, limits: AuthRateLimitOptions) => {
  const { auth } = dataAccess;
  return new Hono<AppEnv>()
    .post("/register", authRateLimit(limits), jsonBody, body(contract.RegisterBody), async (c) =>
      c.json(await auth.register(c.req.valid("json")), 201, NO_STORE),
    )
    .post("/login", authRateLimit(limits), jsonBody, body(contract.LoginBody), async (c) =>
      c.json(await auth.login(c.req.valid("json")), 200, NO_STORE),
    )
    .get("/me", authenticate(dataAccess), async (c) => c.json(await auth.me(c.var.user), 200, NO_STORE));
};
