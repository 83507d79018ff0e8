import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "express",
    include: ["test/**/*.test.ts"],
  },
});
