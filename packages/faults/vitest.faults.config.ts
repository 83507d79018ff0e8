import { defineConfig } from "vitest/config";

// The fault suite (`pnpm test:faults`), kept out of `pnpm test`: this file is not named vitest.config.ts, so the
// root's project glob does not pick it up. Everything runs one test at a time: the faults load a 2-core machine
// on purpose and the database outage stops the suite's one PostgreSQL server.
export default defineConfig({
  test: {
    name: "faults",
    include: ["test/**/*.faults.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 30 * 60_000,
    hookTimeout: 10 * 60_000,
    reporters: ["default", "./src/report/table-reporter.ts"],
  },
});
