import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "data-access",
    include: ["test/**/*.test.ts"],
  },
});
