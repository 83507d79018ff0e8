// The process, on Bun: `@api-ref/server`'s `serveFetchApp` reads the environment and hands this file the data access,
// metrics, logger and config; the app's `fetch` is served by Bun.serve with the contract's limits (`listenWithBun`, the
// same server the hono-bun row uses); SIGTERM/SIGINT stop it gracefully (stop accepting, let in-flight requests finish,
// close the database pool, exit 0). Run with `bun src/server.ts`.
import { listenWithBun, serveFetchApp } from "@api-ref/server/serve-fetch";
import type { Server } from "bun";
import { buildApp, FRAMEWORK } from "./app.ts";

serveFetchApp(
  FRAMEWORK,
  (dependencies, { authRateLimit }) => {
    // Bun hands its server to `fetch` with every request; Elysia's context has a `server` only when `app.listen()`
    // started it, so the rate limit asks this one for the client's address (`server.requestIP(request)`).
    let bun: Pick<Server<unknown>, "requestIP"> | undefined;
    const app = buildApp({ ...dependencies, authRateLimit, requestIP: (request) => bun?.requestIP(request) });
    // listenWithBun hands the handler Bun's server as its second argument.
    return (request: Request, server?: object) => {
      bun ??= server as Pick<Server<unknown>, "requestIP"> | undefined;
      return app.fetch(request);
    };
  },
  listenWithBun,
);
