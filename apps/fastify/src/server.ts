// Reads the environment, builds the app, listens, and closes gracefully: on SIGTERM/SIGINT Fastify stops
// accepting connections, lets in-flight requests finish, runs its onClose hooks (the database pool closes), and
// the process exits 0 (1 if that takes longer than SHUTDOWN_GRACE_MS).
import { loadConfigOrExit } from "@api-ref/core";
import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.ts";
import { schemaModeFrom } from "./modes/index.ts";

const config = loadConfigOrExit();
const mode = schemaModeFrom();
const app = await buildApp({ config, mode });

// In-flight requests finish, but their keep-alive connections would then stay open for Fastify's keepAliveTimeout
// (72 s) and hold close() up: once closing, a connection gets no idle time after its last response.
app.addHook("preClose", async () => {
  app.server.keepAliveTimeout = 1;
});

closeWithGrace({ delay: config.shutdownGraceMs, logger: app.log }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "closing after an uncaught error");
  else app.log.info({ signal }, "shutting down");
  await app.close();
  app.log.info("stopped");
});

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ mode }, "fastify ready");
} catch (error) {
  app.log.fatal({ err: error }, "could not listen");
  process.exit(1);
}
