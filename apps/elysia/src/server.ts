// The process, on Bun: core's `serveFetchApp` reads the environment and hands this file the data access, metrics and
// logger; the app's `fetch` is served by Bun.serve with the contract's limits (`listenWithBun`, the same server the
// hono-bun row uses); SIGTERM/SIGINT stop it gracefully (stop accepting, let in-flight requests finish, close the
// database pool, exit 0). Run with `bun src/server.ts`.
import { listenWithBun, serveFetchApp } from "@api-ref/core/serve-fetch";
import { buildApp, FRAMEWORK } from "./app.ts";

serveFetchApp(FRAMEWORK, (dependencies) => buildApp(dependencies).fetch, listenWithBun);
