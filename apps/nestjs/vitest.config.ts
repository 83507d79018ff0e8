import { defineConfig } from "vitest/config";

export default defineConfig({
  // Nest reads constructor and handler parameter types at run time: the transform emits the legacy decorators and
  // their `design:paramtypes` metadata, as tsc does for the build (tsconfig.json).
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  test: {
    name: "nestjs",
    include: ["test/**/*.test.ts"],
  },
});
