import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "fastify",
    include: ["test/**/*.test.ts"],
  },
});
