import { Elysia } from "elysia";
import type { Logger } from "pino";

/**
 * One pino line per request, with its request id, once the response is sent. Mounted only when LOG_LEVEL is not
 * `silent`, so a benchmark with logging off pays nothing for it. It names the fields it logs and no header among
 * them, so no bearer token or cookie reaches a line; the path is logged without its query string.
 */
export const requestLogger = (logger: Logger) =>
  new Elysia({ name: "request-logger" }).onAfterResponse({ as: "global" }, ({ request, path, set }) => {
    logger.info(
      {
        reqId: set.headers["x-request-id"],
        req: { method: request.method, url: path },
        res: { statusCode: set.status },
      },
      "request completed",
    );
  });
