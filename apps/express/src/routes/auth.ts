import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import { type RequestHandler, Router } from "express";
import { jsonBody } from "../edges/json-body.ts";
import { authenticate } from "../middleware/auth.ts";
import { authRateLimit } from "../middleware/rate-limit.ts";
import { validate } from "../middleware/validate.ts";

// Tokens and the caller's own user are never to be cached (RFC 6749 §5.1); set once the answer is known, so that
// an error keeps the error handler's headers alone.
const NO_STORE = { "cache-control": "no-store" };

export interface AuthRoutesOptions {
  /** Requests per client address and window to each of register and login (`config.authRateLimit`). */
  authRateLimit: number;
}

export function authRoutes({ auth }: DataAccess, { authRateLimit: limit }: AuthRoutesOptions) {
  const router = Router({ caseSensitive: true, strict: true });
  const signedIn = authenticate(auth);
  // A limiter of its own for each route, so that each is counted apart; before jsonBody, so before the body is read.
  const rateLimited = (): RequestHandler => authRateLimit(limit);

  router
    .route("/register")
    .post(rateLimited(), jsonBody, validate({ body: contract.RegisterBody }), async (req, res) => {
      const registered = await auth.register(req.body);
      res.status(201).set(NO_STORE).json(registered);
    });

  router.route("/login").post(rateLimited(), jsonBody, validate({ body: contract.LoginBody }), async (req, res) => {
    const token = await auth.login(req.body);
    res.set(NO_STORE).json(token);
  });

  router.route("/me").get(signedIn, async (_req, res) => {
    const user = await auth.me(res.locals.principal);
    res.set(NO_STORE).json(user);
  });

  return router;
}
