// Listens and closes gracefully: on SIGTERM/SIGINT Fastify stops accepting connections, lets in-flight requests
// finish, runs its onClose hooks (the database pool closes), and the process exits 0 (1 if that takes longer than
// SHUTDOWN_GRACE_MS).
import type { AppConfig } from "@api-ref/server";
import closeWithGrace from "close-with-grace";
import type { FastifyInstance } from "fastify";

/** Starts `app` as the server called `name`; `fields` go into its `ready` log line. */
export async function serve(
  app: Pick<FastifyInstance, "server" | "log" | "listen" | "close">,
  config: AppConfig,
  name: string,
  fields: object = {},
) {
  closeWithGrace({ delay: config.shutdownGraceMs, logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "closing after an uncaught error");
    else app.log.info({ signal }, "shutting down");
    // In-flight requests finish, but their keep-alive connections would then stay open for Fastify's
    // keepAliveTimeout (72 s) and hold close() up: once closing, a connection gets no idle time after its last
    // response.
    app.server.keepAliveTimeout = 1;
    await app.close();
    app.log.info("stopped");
  });

  try {
    await app.listen({ port: config.port, host: config.host });
    app.log.info(fields, `${name} ready`);
  } catch (error) {
    app.log.fatal({ err: error }, "could not listen");
    process.exit(1);
  }
}
