import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "express-to-nestjs",
    include: ["test/**/*.test.ts"],
    // The app is built (tsc, apps/nestjs first) and started as in production before the tests run.
    hookTimeout: 180_000,
  },
});
