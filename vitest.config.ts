import { defineConfig } from "vitest/config";

// `pnpm test` runs every package's suite; each project has its own config beside its code (the contract package
// has two: the contract suite, and its unit tests).
// VITEST_JSON_REPORT=FILE also writes vitest's JSON report there and prints the contract suite's parity matrix: CI
// runs `pnpm test` exactly as the README's quick start says, and reads its counts from that file.
// package.json's `test` passes --maxWorkers=100% (a file per core): a maxWorkers set here would not reach the projects.
const jsonReport = process.env.VITEST_JSON_REPORT;

export default defineConfig({
  test: {
    projects: ["{packages/*,apps/*,bench,examples/*}/vitest.config.ts", "packages/contract/vitest.unit.config.ts"],
    ...(jsonReport && {
      reporters: ["default", "./packages/contract/test/matrix-reporter.ts", "json"],
      outputFile: { json: jsonReport },
    }),
  },
});
