// Every implementation, started as in production with a configuration it cannot start with, prints the problems
// alone (no stack trace, no log framing) and exits 2 — what a newcomer with a bad .env sees first.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { implementations, NEEDS, REPO_ROOT } from "@api-ref/harness";
import { describe, expect, it } from "vitest";
import { contract, targets } from "./targets.ts";

// Implementations this run started (and so built); none in URL mode, where the server is someone else's.
const started = implementations.filter((i) => contract.adminUrl !== null && targets.some((t) => t.name === i.name));

if (started.length === 0) {
  describe.each(targets)("$name", () => {
    it("started with a bad configuration, prints every problem alone and exits 2", (ctx) =>
      ctx.skip(NEEDS.ownInstances));
  });
}

describe.each(started)("$name", (impl) => {
  it("started with a bad configuration, prints every problem alone and exits 2", async () => {
    const child = spawn(impl.start.command, impl.start.args, {
      cwd: join(REPO_ROOT, impl.dir),
      env: { PATH: process.env.PATH, ...impl.start.env, JWT_SECRET: "short", DATABASE_URL: "mysql://u@h/db" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(stderr).toBe(
      "invalid configuration:\n  - DATABASE_URL must be a postgres:// or postgresql:// URL\n  - JWT_SECRET is required (at least 16 characters)\n",
    );
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });
});
