import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "hapi",
    include: ["test/**/*.test.ts"],
  },
});
