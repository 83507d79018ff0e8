// Reads the environment, creates the one Nest application on its Express platform, listens, and shuts down
// gracefully: on SIGTERM/SIGINT Nest stops taking connections, lets in-flight requests finish — whichever world
// serves them — runs the shutdown hooks (the one database pool is closed there) and the process exits 0.
import { createServer } from "node:http";
import { httpServerOptions, loadConfigOrExit } from "@api-ref/core";
import { Logger, type LogLevel, type NestApplicationOptions } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { ExpressAdapter, type NestExpressApplication } from "@nestjs/platform-express";
import express from "express";
import { AppModule } from "./app.module.ts";
import { FRAMEWORK } from "./meta/meta.controller.ts";

const config = loadConfigOrExit();

/**
 * The Express platform's server is `http.createServer(app)` with Node's defaults; this one states the contract's
 * limits (head size, time for the head and for the whole request, keep-alive; @api-ref/core's limits.ts).
 * apps/nestjs's `LimitedExpressAdapter`, copied for the reason below.
 */
class LimitedExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions) {
    super.initHttpServer(options);
    this.httpServer = createServer(httpServerOptions, this.getInstance());
  }
}

/**
 * `LOG_LEVEL` (pino's names) as Nest's logger levels; `silent` turns logging off. apps/nestjs's `nestLogLevels`,
 * copied: its module (`platform.ts`) also loads the Fastify platform, which this app never uses.
 */
function nestLogLevels(logLevel: string): LogLevel[] | false {
  const levels: LogLevel[] = ["fatal", "error", "warn", "log", "debug", "verbose"];
  const nest: Record<string, LogLevel> = {
    fatal: "fatal",
    error: "error",
    warn: "warn",
    info: "log",
    debug: "debug",
    trace: "verbose",
  };
  const level = nest[logLevel];
  return level ? levels.slice(0, levels.indexOf(level) + 1) : false;
}

// The settings of apps/express (see its README), on the one Express instance both worlds run on. Express reads
// the two routing settings when it creates its router, which the adapter does at once: they go on an instance
// made first (as in apps/nestjs). The Express routers are strict on their own (`strict: true`).
const server = express();
server.set("case sensitive routing", true);
server.set("strict routing", true);

const app = await NestFactory.create<NestExpressApplication>(
  AppModule.forRoot(config),
  new LimitedExpressAdapter(server),
  {
    // Nest's body parsers would read every body before any middleware: the Express routers' own `jsonBody` would
    // then find the stream consumed, and Nest's routes read theirs with apps/nestjs's `@JsonBody()`.
    bodyParser: false,
    logger: nestLogLevels(config.logLevel),
  },
);
// The rest of apps/express's settings: no `x-powered-by`, no ETags, the `simple` query parser (`?a[b]=1` stays a
// key) — for Nest's routes and the Express routers alike.
app.disable("x-powered-by");
app.set("etag", false);
app.set("query parser", "simple");
app.enableShutdownHooks(["SIGTERM", "SIGINT"], { useProcessExit: true });
await app.listen(config.port, config.host);
new Logger("main").log(`${FRAMEWORK} listening on http://${config.host}:${config.port}`);
