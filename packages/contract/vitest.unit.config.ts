import { defineConfig } from "vitest/config";

// The contract package's own unit tests (the test:contract and start:<name> commands, URL mode's checks of what it
// is given): fast, no implementation started. The contract suite itself is vitest.config.ts.
export default defineConfig({
  test: {
    name: "contract-unit",
    include: ["test/**/*.unit.test.ts"],
    testTimeout: 30_000,
  },
});
