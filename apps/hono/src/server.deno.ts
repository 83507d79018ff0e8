// The same app on Deno: core's `serveFetchApp` reads the environment and hands this file the data access, metrics
// and logger; the app's `fetch` is served by Deno.serve (`listenWithDeno`, with the contract's limits); SIGTERM/SIGINT
// stop it gracefully (stop accepting, let in-flight requests finish, close the database pool, exit 0).
// Run with `deno run --allow-all src/server.deno.ts` (registry row `hono-deno`).
import { listenWithDeno, serveFetchApp } from "@api-ref/core/serve-fetch";
import { buildApp, FRAMEWORK } from "./app.ts";

serveFetchApp(FRAMEWORK, (dependencies) => buildApp(dependencies).fetch, listenWithDeno);
