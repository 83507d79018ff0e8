import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "express4",
    include: ["test/**/*.test.ts"],
  },
});
