import { defineConfig } from "vitest/config";

// The fault suite (`pnpm test:faults`), kept out of `pnpm test`: this file is not named vitest.config.ts, so the
// root's project glob does not pick it up. Everything but schema-fuzz runs one test at a time: the faults load a
// 2-core machine on purpose and the database outage stops the suite's one PostgreSQL server. Schema-fuzz checks
// answers and loads nothing, and hostile-input sends a few hundred requests: each runs two implementations at a time
// (schema-fuzz alone: 140 s → 70 s here).
export default defineConfig({
  test: {
    name: "faults",
    include: ["test/**/*.faults.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    fileParallelism: false,
    // Schema-fuzz's and hostile-input's two at a time (the other files' tests are not concurrent).
    maxConcurrency: 2,
    testTimeout: 30 * 60_000,
    hookTimeout: 10 * 60_000,
    reporters: ["default", "./src/report/table-reporter.ts"],
  },
});
