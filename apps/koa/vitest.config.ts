import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "koa",
    include: ["test/**/*.test.ts"],
  },
});
