import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Nest reads constructor and handler parameter types at run time: the transform emits the legacy decorators and
  // their `design:paramtypes` metadata, as tsc does for the build (tsconfig.json).
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  // apps/nestjs's modules from their source, as for its own tests (its package exports the built ones at run time).
  resolve: {
    alias: [
      { find: /^@api-ref\/nestjs\/(.*)$/, replacement: fileURLToPath(new URL("../nestjs/src/$1.ts", import.meta.url)) },
    ],
  },
  test: {
    name: "express-to-nestjs",
    include: ["test/**/*.test.ts"],
    // mixed.test.ts builds the app (tsc, apps/nestjs first) and starts it as in production before its tests run.
    hookTimeout: 180_000,
  },
});
