import { AUTH_RATE_WINDOW_SECONDS } from "@api-ref/server";
import { Module } from "@nestjs/common";
import { seconds, ThrottlerModule } from "@nestjs/throttler";
import { APP_CONFIG, type AppConfig } from "../config.ts";
import { AuthController } from "./auth.controller.ts";

/**
 * The auth routes; their repository comes from the global DataAccessModule. The rate limit of register and login
 * is configured here, with the routes it limits (`AuthThrottlerGuard` on each): `AUTH_RATE_LIMIT` requests per
 * client address and route in a window of AUTH_RATE_WINDOW_SECONDS, counted in this process's memory.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => [
        {
          ttl: seconds(AUTH_RATE_WINDOW_SECONDS),
          limit: config.authRateLimit,
          // No block past the limit: a request is let through again as soon as the oldest one counted leaves the
          // window, which is what `retry-after` announces (the default blocks for a whole `ttl` from the refusal).
          blockDuration: 0,
        },
      ],
    }),
  ],
  controllers: [AuthController],
})
export class AuthModule {}
