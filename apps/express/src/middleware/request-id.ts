import { requestIdFrom } from "@api-ref/server";
import type { RequestHandler } from "express";

/** Every response, errors included, carries `x-request-id` (the client's own when valid). */
export const requestId: RequestHandler = (req, res, next) => {
  res.setHeader("x-request-id", requestIdFrom(req.headers["x-request-id"]));
  next();
};
