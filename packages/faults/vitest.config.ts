import { defineConfig } from "vitest/config";

// The faults package's own unit tests (the oracle, the generators, the options, the heap probe): fast, part of
// `pnpm test`. The fault suite itself is vitest.faults.config.ts, run by `pnpm test:faults`.
export default defineConfig({
  test: {
    name: "faults",
    include: ["test/**/*.unit.test.ts"],
  },
});
