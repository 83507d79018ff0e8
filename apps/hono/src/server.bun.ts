// The same app on Bun: `@api-ref/server`'s `serveFetchApp` reads the environment and hands this file the data access,
// metrics and logger; the app's `fetch` is served by Bun.serve (`listenWithBun`, with the contract's limits);
// SIGTERM/SIGINT stop it gracefully (stop accepting, let in-flight requests finish, close the database pool, exit 0).
// Run with `bun src/server.bun.ts` (registry row `hono-bun`).
import { listenWithBun, serveFetchApp } from "@api-ref/server/serve-fetch";
import { getConnInfo } from "hono/bun";
import { buildApp, FRAMEWORK } from "./app.ts";

// hono/bun's `getConnInfo` reads the client's address from Bun's server, which reaches the app as `fetch`'s second
// argument (`c.env`); where the server passes the request alone, the rate limit counts all clients as one.
serveFetchApp(
  FRAMEWORK,
  (dependencies, { authRateLimit }) => buildApp({ ...dependencies, authRateLimit, getConnInfo }).fetch,
  listenWithBun,
);
