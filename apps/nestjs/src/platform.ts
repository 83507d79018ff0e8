// One application, two HTTP platforms (src/platforms/: each adapter, its settings for the
// contract's strict paths and limits). Each platform's body parsing is off (the JSON body is read by
// `JsonBodyInterceptor`, after routing, on the routes that take one).
import type { INestApplication } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import type { NestExpressApplication } from "@nestjs/platform-express";
import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import { AppModule } from "./app.module.ts";
import { type AppConfig, nestLogLevels, type Platform } from "./config.ts";
import { expressPlatform } from "./platforms/express.ts";
import { fastifyPlatform } from "./platforms/fastify.ts";

export async function createApp(config: AppConfig, platform: Platform): Promise<INestApplication> {
  const module = AppModule.forRoot(config, platform);
  // Nest's body parsers would read every body before routing (a 400 for bad JSON where the contract wants a
  // 405) and on routes that take none; off on both platforms.
  const options = { bodyParser: false, logger: nestLogLevels(config.logLevel) };

  if (platform === "fastify") {
    const { adapter, configure } = fastifyPlatform;
    return configure(await NestFactory.create<NestFastifyApplication>(module, adapter(), options));
  }
  const { adapter, configure } = expressPlatform;
  return configure(await NestFactory.create<NestExpressApplication>(module, adapter(), options));
}
