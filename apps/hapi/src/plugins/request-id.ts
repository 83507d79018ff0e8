import { requestIdFrom } from "@api-ref/server";
import type { Plugin } from "@hapi/hapi";

declare module "@hapi/hapi" {
  interface RequestApplicationState {
    /** The client's `x-request-id` when valid, else a fresh UUID. */
    requestId: string;
  }
}

/** Every response, errors included, carries `x-request-id`: set after the problem handler has built its response. */
export const requestIdPlugin: Plugin<void> = {
  name: "request-id",
  register(server) {
    server.ext("onRequest", (request, h) => {
      request.app.requestId = requestIdFrom(request.raw.req.headers["x-request-id"]);
      return h.continue;
    });
    server.ext(
      "onPreResponse",
      (request, h) => {
        const response = request.response;
        if ("isBoom" in response && response.isBoom) response.output.headers["x-request-id"] = request.app.requestId;
        else if ("header" in response) response.header("x-request-id", request.app.requestId);
        return h.continue;
      },
      { after: ["problem-handler"] },
    );
  },
};
