import { defineConfig } from "vitest/config";

// The example client against a running implementation (started by the test itself, on its own database), and
// the type-level test that its generated types agree with the contract's Zod types (run by the type checker).
export default defineConfig({
  test: {
    name: "example-client",
    include: ["test/**/*.test.ts"],
    // Writes src/generated/openapi.ts from docs/openapi.json first (also done on install).
    globalSetup: ["./scripts/generate.ts"],
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
});
