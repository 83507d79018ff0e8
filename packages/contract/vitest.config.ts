import { defineConfig } from "vitest/config";

// The contract suite: every implementation, over real HTTP. Files run one after another because they share
// each implementation's database; within a file, each implementation's tests run in order, and the files written
// with describeEachTarget (test/targets.ts) run the implementations side by side.
export default defineConfig({
  test: {
    name: "contract",
    include: ["test/**/*.contract.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Counts the suite's requests in a URL run, for the coverage table.
    setupFiles: ["test/support/request-log.ts"],
    fileParallelism: false,
    // Every implementation of a describeEachTarget file at once (vitest's default is 5 tests at a time).
    maxConcurrency: 32,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // The parity matrix; a JUnit file when CONTRACT_JUNIT names one (--junit); the coverage table in a URL run.
    reporters: ["default", "./test/matrix-reporter.ts", "./test/junit-reporter.ts", "./test/coverage-reporter.ts"],
  },
});
