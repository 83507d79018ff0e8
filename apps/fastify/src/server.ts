// Reads the environment, builds the app in the chosen schema mode, listens, and closes gracefully (src/serve.ts).
import { loadConfigOrExit } from "@api-ref/server";
import { buildApp } from "./app.ts";
import { schemaModeFrom } from "./modes/index.ts";
import { serve } from "./serve.ts";

const config = loadConfigOrExit();
const mode = schemaModeFrom();
await serve(await buildApp({ config, mode }), config, "fastify", { mode });
