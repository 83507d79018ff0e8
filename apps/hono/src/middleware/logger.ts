import { createMiddleware } from "hono/factory";
import type { Logger } from "pino";
import type { AppEnv } from "../env.ts";

/**
 * One pino line per request, with its request id, and `c.var.log` for handlers and the error handler. Hono's own
 * `logger()` middleware prints plain text through `console.log`; this is its shape with the project's JSON logs.
 * Mounted only when LOG_LEVEL is not `silent`, so a benchmark with logging off pays nothing for it. It logs no
 * header and no body, so no token, cookie or password can reach a log line.
 */
export const requestLogger = (logger: Logger) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const started = process.hrtime.bigint();
    const log = logger.child({ reqId: c.var.requestId });
    c.set("log", log);
    await next();
    log.info(
      {
        req: { method: c.req.method, url: c.req.path },
        res: { statusCode: c.res.status },
        responseTime: Number(process.hrtime.bigint() - started) / 1e6,
      },
      "request completed",
    );
  });
