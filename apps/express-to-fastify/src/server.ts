// Reads the environment, builds the app, listens, and closes gracefully with the Fastify app's `serve()`. There is
// one server, Fastify's (the Express routers never listen): on SIGTERM/SIGINT in-flight requests finish, whichever
// world serves them, and the one database pool closes once.

import { serve } from "@api-ref/fastify/serve";
import { loadConfigOrExit } from "@api-ref/server";
import { buildApp, FRAMEWORK } from "./app.ts";

const config = loadConfigOrExit();
await serve(await buildApp({ config }), config, FRAMEWORK);
