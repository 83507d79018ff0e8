import { requestIdFrom } from "@api-ref/server";
import { Elysia } from "elysia";

/**
 * Every response, errors and unmatched paths included, carries `x-request-id` (the client's own when valid):
 * `onRequest` runs before routing, and what it puts in `set.headers` goes out with whatever answers.
 */
export const requestId = new Elysia({ name: "request-id" }).onRequest(({ request, set }) => {
  set.headers["x-request-id"] = requestIdFrom(request.headers.get("x-request-id") ?? undefined);
});
