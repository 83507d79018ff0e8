// The same app on Deno: `@api-ref/server`'s `serveFetchApp` reads the environment and hands this file the data access,
// metrics and logger; the app's `fetch` is served by Deno.serve (`listenWithDeno`, with the contract's limits);
// SIGTERM/SIGINT stop it gracefully (stop accepting, let in-flight requests finish, close the database pool, exit 0).
// Run with `deno run --allow-all src/server.deno.ts` (registry row `hono-deno`).
import { listenWithDeno, serveFetchApp } from "@api-ref/server/serve-fetch";
import { getConnInfo } from "hono/deno";
import { buildApp, FRAMEWORK } from "./app.ts";

// hono/deno's `getConnInfo` reads the client's address from Deno.serve's handler info (`remoteAddr`), which reaches
// the app as `fetch`'s second argument (`c.env`); where the server passes the request alone, the rate limit counts
// all clients as one.
serveFetchApp(
  FRAMEWORK,
  (dependencies, { authRateLimit }) => buildApp({ ...dependencies, authRateLimit, getConnInfo }).fetch,
  listenWithDeno,
);
