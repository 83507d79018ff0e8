// Reads the environment, creates the one Nest application on apps/nestjs's Express platform, listens, and shuts
// down gracefully: on SIGTERM/SIGINT Nest stops taking connections, lets in-flight requests finish — whichever
// world serves them — runs the shutdown hooks (the one database pool is closed there) and the process exits 0.

import { nestLogLevels } from "@api-ref/nestjs/config";
import { expressPlatform } from "@api-ref/nestjs/platforms/express";
import { loadConfigOrExit } from "@api-ref/server";
import { Logger } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import type { NestExpressApplication } from "@nestjs/platform-express";
import { AppModule, FRAMEWORK } from "./app.module.ts";

const config = loadConfigOrExit();
// apps/nestjs's Express platform: the contract's server limits, strict paths, no `x-powered-by`, no ETags, the
// `simple` query parser, helmet and the content-security policy — for Nest's routes and the Express routers alike,
// which run on that one Express instance (so every response gets the headers once, whichever world answers).
const { adapter, configure } = expressPlatform;
const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), adapter(), {
  // Nest's body parsers would read every body before any middleware: the Express routers' own `jsonBody` would
  // then find the stream consumed, and Nest's routes read theirs with apps/nestjs's `@JsonBody()`.
  bodyParser: false,
  logger: nestLogLevels(config.logLevel),
});
configure(app);
app.enableShutdownHooks(["SIGTERM", "SIGINT"], { useProcessExit: true });
await app.listen(config.port, config.host);
new Logger("main").log(`${FRAMEWORK} listening on http://${config.host}:${config.port}`);
