import type { Server } from "node:http";
import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from "@nestjs/common";
import { HttpAdapterHost } from "@nestjs/core";
import { APP_CONFIG, type AppConfig } from "../config.ts";

/**
 * Bounds a graceful shutdown. Nest closes the HTTP server after this hook and waits for in-flight requests;
 * those still running after `SHUTDOWN_GRACE_MS` have their connections closed, so that the database pool
 * (closed in `DataAccessModule.onApplicationShutdown`, next) is not held open by a stuck client.
 *
 * A keep-alive connection whose request finishes during the shutdown would otherwise stay open for the
 * server's keep-alive timeout (Fastify's 72 s, Node's 5 s) and hold the close up until the grace ran out: once
 * shutting down, a connection gets no idle time after its last response.
 */
@Injectable()
export class ShutdownGrace implements BeforeApplicationShutdown {
  private readonly logger = new Logger("ShutdownGrace");

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  beforeApplicationShutdown(signal?: string) {
    this.logger.log(`shutting down (${signal ?? "close"})`);
    const server: Server = this.adapterHost.httpAdapter.getHttpServer();
    server.keepAliveTimeout = 1;
    setTimeout(() => {
      this.logger.error("in-flight requests did not finish in time; closing them");
      server.closeAllConnections();
    }, this.config.shutdownGraceMs).unref();
  }
}
