import type { NextFunction, Request, RequestHandler, Response } from "express4";

/**
 * Express 4 does not look at what a handler returns: a rejected promise would never reach the error handler (an
 * unhandled rejection, and a request left hanging). Express 5 forwards it itself; here each async handler is wrapped.
 */
export const asyncHandler =
  (handler: (req: Request, res: Response, next: NextFunction) => Promise<unknown>): RequestHandler =>
  (req, res, next) => {
    handler(req, res, next).catch(next);
  };
