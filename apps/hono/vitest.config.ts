import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "hono",
    include: ["test/**/*.test.ts"],
  },
});
