import { defineConfig } from "vitest/config";

// The Node side of packages/python: the root postinstall that makes the Python environments (scripts/setup-venvs.ts).
// The Python packages' own tests are pytest's (scripts/test.sh).
export default defineConfig({
  test: {
    name: "python-setup",
    include: ["scripts/test/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
