import type { AppConfig } from "@api-ref/server";
import type { LogLevel } from "@nestjs/common";

export type { AppConfig };

/** Injection token of the configuration read from the environment at start-up (`loadConfig()`). */
export const APP_CONFIG = Symbol("APP_CONFIG");

/** Injection token of the HTTP platform the application runs on. */
export const PLATFORM = Symbol("PLATFORM");

/** The HTTP platforms this one application runs on, chosen by `NEST_PLATFORM`. */
export const PLATFORMS = ["express", "fastify"] as const;
export type Platform = (typeof PLATFORMS)[number];

export function platformFromEnv(value: string | undefined): Platform {
  const platform = value || "express";
  if (!(PLATFORMS as readonly string[]).includes(platform)) {
    throw new Error(`NEST_PLATFORM must be one of ${PLATFORMS.join(", ")}, got "${value}"`);
  }
  return platform as Platform;
}

const LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "log", "debug", "verbose"];
const NEST_LEVEL: Record<string, LogLevel> = {
  fatal: "fatal",
  error: "error",
  warn: "warn",
  info: "log",
  debug: "debug",
  trace: "verbose",
};

/** `LOG_LEVEL` (pino's names, as every app reads it) as Nest's logger levels; `silent` turns logging off. */
export function nestLogLevels(logLevel: string): LogLevel[] | false {
  const level = NEST_LEVEL[logLevel];
  return level ? LEVELS.slice(0, LEVELS.indexOf(level) + 1) : false;
}
