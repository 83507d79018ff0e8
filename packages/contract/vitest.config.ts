import { defineConfig } from "vitest/config";

// The contract suite: every implementation, over real HTTP. Files run one after another because they share
// each implementation's database; within a file, tests run in order.
export default defineConfig({
  test: {
    name: "contract",
    include: ["test/**/*.contract.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ["default", "./test/matrix-reporter.ts"],
  },
});
