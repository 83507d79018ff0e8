import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "express-to-fastify",
    include: ["test/**/*.test.ts"],
  },
});
