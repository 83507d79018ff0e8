// For the tests of this app and of the express-to-nestjs template: a compiled testing module
// (`Test.createTestingModule(...).compile()`) started as the app starts in production, on either platform, and the
// problem assertion of @api-ref/data-access/testing over a supertest response.
import type { AppConfig } from "@api-ref/server";
import type { INestApplication } from "@nestjs/common";
import type { NestExpressApplication } from "@nestjs/platform-express";
import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import type { TestingModule } from "@nestjs/testing";
import type { Platform } from "./config.ts";
import { expressPlatform } from "./platforms/express.ts";
import { fastifyPlatform } from "./platforms/fastify.ts";

/** A configuration for a module whose data access is overridden: nothing listens at `databaseUrl`. */
export const TEST_CONFIG: AppConfig = {
  port: 0,
  host: "127.0.0.1",
  databaseUrl: "postgres://nobody:nothing@127.0.0.1:9/none",
  jwtSecret: "a-secret-of-at-least-16-characters",
  logLevel: "silent",
  poolSize: 1,
  statementTimeoutMs: 5000,
  shutdownGraceMs: 1000,
  dataAccessMode: "client",
  // High, as for the contract suite's instances: a test of the limit itself sets its own.
  authRateLimit: 1000,
};

/** The application of `moduleRef` on `platform`, configured as `createApp()` does and initialised. */
export async function startOn(platform: Platform, moduleRef: TestingModule): Promise<INestApplication> {
  // As in production: no body parser (the `@JsonBody()` interceptor reads bodies), no logging.
  const options = { bodyParser: false, logger: false as const };
  if (platform === "fastify") {
    const { adapter, configure } = fastifyPlatform;
    const app = await configure(moduleRef.createNestApplication<NestFastifyApplication>(adapter(), options));
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    return app;
  }
  const { adapter, configure } = expressPlatform;
  const app = configure(moduleRef.createNestApplication<NestExpressApplication>(adapter(), options));
  return app.init();
}

/** A supertest response in the shape `expectProblem()` of @api-ref/data-access/testing reads. */
export const problemOf = (res: { status: number; headers: Record<string, string>; body: unknown }) => ({
  status: res.status,
  contentType: res.headers["content-type"],
  body: res.body,
});
