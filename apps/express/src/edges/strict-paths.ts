import { isContractPath, unmatched } from "@api-ref/contract";
import type { RequestHandler } from "express";

/**
 * Before the routers. A router mounted at `/users` takes `/users/` for its `/` too (Express 4 `/users.json` for its
 * `/.json`), and Express's router answers OPTIONS itself with its own allow list: the contract's paths are strict,
 * matched as sent (404 for any other), and it serves no OPTIONS (405 on its paths).
 */
export const strictPaths: RequestHandler = (req, _res, next) => {
  if (req.method === "OPTIONS" || !isContractPath(req.originalUrl)) {
    return next(unmatched(req.method, req.originalUrl).problem);
  }
  next();
};

/** After the routers, when none took the request: 405 with `allow` on a path the contract serves, else 404. */
export const notFound: RequestHandler = (req, _res, next) => next(unmatched(req.method, req.originalUrl).problem);
