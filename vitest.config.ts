import { defineConfig } from "vitest/config";

// `pnpm test` runs every package's suite; each project has its own config beside its code.
export default defineConfig({
  test: {
    projects: ["{packages/*,apps/*,bench,examples/*}/vitest.config.ts"],
  },
});
