import { type DataAccess, type Principal, requireAdmin as requireAdminRole } from "@api-ref/data-access";
import type { RequestHandler } from "express";

declare global {
  namespace Express {
    interface Locals {
      /** The caller, set by `authenticate`: read it only in handlers placed after it. */
      principal: Principal;
    }
  }
}

/**
 * Per route, before the body is read or validated: the caller from the bearer token (the data access verifies it and
 * reads the user's current role) goes to `res.locals.principal`; a missing or refused token is the 401 with its
 * challenge. A promise chain ending in `next`, not an async function, so that Express 4 (apps/express4 imports this
 * file), which ignores a rejected promise, passes the refusal on too.
 */
export const authenticate =
  (auth: DataAccess["auth"]): RequestHandler =>
  (req, res, next) => {
    auth.authenticate(req.get("authorization")).then((principal) => {
      res.locals.principal = principal;
      next();
    }, next);
  };

/** After `authenticate`, on admin routes: a customer gets the 403 before anything about the request is checked. */
export const requireAdmin: RequestHandler = (_req, res, next) => {
  requireAdminRole(res.locals.principal);
  next();
};
