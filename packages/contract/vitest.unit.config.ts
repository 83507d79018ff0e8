import { defineConfig } from "vitest/config";

// The contract package's own unit tests (`pnpm test:contract --url` against a stand-in server, the docs generator):
// fast, no implementation started. The contract suite itself is vitest.config.ts.
export default defineConfig({
  test: {
    name: "contract-unit",
    include: ["test/**/*.unit.test.ts"],
    testTimeout: 30_000,
  },
});
