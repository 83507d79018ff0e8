import { defineConfig } from "vitest/config";

// `pnpm --filter @api-ref/bench test:counts`: --count instructions end to end, on real servers under valgrind (about
// two to six minutes: three targets, two processes each). Kept out of `pnpm test`: this file is not named
// vitest.config.ts, so the root's project glob does not pick it up; CI runs it beside a stage that mostly waits.
export default defineConfig({
  test: {
    name: "bench-counts",
    include: ["test/**/*.counts.test.ts"],
    testTimeout: 10 * 60_000,
  },
});
