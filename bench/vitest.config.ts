import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "bench",
    include: ["test/**/*.test.ts"],
    // --count instructions end to end runs under valgrind for minutes: its own config (vitest.counts.config.ts).
    exclude: [...configDefaults.exclude, "test/**/*.counts.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
