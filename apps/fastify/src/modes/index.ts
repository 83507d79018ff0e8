// The two modes of the same routes. Every route declares the contract's Zod schemas; the mode decides which
// compilers Fastify turns them into at start-up.
import type { SchemaCompilers } from "./compilers.ts";
import { jsonSchemaCompilers } from "./json-schema.ts";
import { zodCompilers } from "./zod.ts";

export const SCHEMA_MODES = ["zod", "json-schema"] as const;
export type SchemaMode = (typeof SCHEMA_MODES)[number];

export type { SchemaCompilers } from "./compilers.ts";

export const compilersFor = (mode: SchemaMode): SchemaCompilers =>
  mode === "zod" ? zodCompilers : jsonSchemaCompilers();

/** `FASTIFY_MODE=zod|json-schema` (default `zod`). */
export function schemaModeFrom(env: NodeJS.ProcessEnv = process.env): SchemaMode {
  const mode = env.FASTIFY_MODE || "zod";
  if (!(SCHEMA_MODES as readonly string[]).includes(mode)) {
    throw new Error(
      `invalid configuration:\n  - FASTIFY_MODE must be one of ${SCHEMA_MODES.join(", ")}, got "${mode}"`,
    );
  }
  return mode as SchemaMode;
}
