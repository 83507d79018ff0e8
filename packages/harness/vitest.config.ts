import { defineConfig } from "vitest/config";

// The harness's own unit tests (`pnpm dev`/`pnpm start`'s command lines, URL mode's checks, the client, the token forger, the
// crud-mix generator): fast, no implementation started, part of `pnpm test`.
export default defineConfig({
  test: {
    name: "harness",
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
