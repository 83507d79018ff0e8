import { defineConfig } from "vitest/config";

// The harness's own unit tests (the dev:/start: commands, URL mode's checks, the client, the token forger, the
// crud-mix generator): fast, no implementation started, part of `pnpm test`.
export default defineConfig({
  test: {
    name: "harness",
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
