import { defineConfig } from "vitest/config";

// `pnpm test` runs every package's suite; each project has its own config beside its code (the contract package
// has two: the contract suite, and its unit tests).
export default defineConfig({
  test: {
    projects: ["{packages/*,apps/*,bench,examples/*}/vitest.config.ts", "packages/contract/vitest.unit.config.ts"],
  },
});
