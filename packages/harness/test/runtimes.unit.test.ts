// Where the Bun and Deno binaries are found, and what a row on a platform without one is told.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { implementations, platformPackage, runtimeBinary, selectImplementations } from "../src/index.ts";

describe("platformPackage", () => {
  it.each([
    ["bun", "linux", "x64", "@oven/bun-linux-x64"],
    ["bun", "darwin", "arm64", "@oven/bun-darwin-aarch64"],
    ["bun", "win32", "x64", "@oven/bun-windows-x64"],
    ["deno", "linux", "arm64", "@deno/linux-arm64-glibc"],
    ["deno", "darwin", "x64", "@deno/darwin-x64"],
  ] as const)("%s on %s-%s is %s", (runtime, platform, arch, name) => {
    expect(platformPackage(runtime, platform, arch)).toBe(name);
  });
});

describe("runtimeBinary", () => {
  it.each(["bun", "deno"] as const)("finds %s as pnpm install left it, and it runs", (runtime) => {
    const binary = runtimeBinary(runtime);
    expect(binary.missing).toBeUndefined();
    const run = spawnSync(binary.command as string, ["--version"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(runtime === "bun" ? /^1\.4\.4/ : /^deno 2\.9\.6/);
  });

  it("says to run pnpm install when the package is not there", () => {
    const dir = mkdtempSync(join(tmpdir(), "runtimes-"));
    writeFileSync(join(dir, "package.json"), "{}");
    expect(runtimeBinary("bun", join(dir, "package.json"))).toEqual({
      missing: "bun is not installed (run pnpm install)",
    });
  });

  it("names the platform package when only the wrapper's stub is installed (no binary for this platform)", () => {
    const dir = mkdtempSync(join(tmpdir(), "runtimes-"));
    writeFileSync(join(dir, "package.json"), "{}");
    mkdirSync(join(dir, "node_modules/bun/bin"), { recursive: true });
    writeFileSync(join(dir, "node_modules/bun/package.json"), '{"name":"bun"}');
    writeFileSync(join(dir, "node_modules/bun/bin/bun.exe"), "echo 'postinstall not run'; exit 1\n");
    const { missing } = runtimeBinary("bun", join(dir, "package.json"));
    expect(missing).toBe(
      `bun has no binary for ${process.platform}-${process.arch} (${platformPackage("bun")} is not installed)`,
    );
  });
});

describe("rows on Bun and Deno", () => {
  it("are registered with their runtime, and start from the runtime's binary", () => {
    const rows = implementations.filter((impl) => impl.runtime === "bun" || impl.runtime === "deno");
    expect(rows.map((impl) => impl.name)).toEqual(expect.arrayContaining(["express-bun", "hono-bun", "hono-deno"]));
    for (const impl of rows) expect(impl.start.command).toBe(runtimeBinary(impl.runtime as "bun" | "deno").command);
  });

  it("are selected like any other where their runtime has a binary, and nothing is reported skipped", () => {
    const skipped: string[] = [];
    const selected = selectImplementations("hono-bun,hono-deno", (impl) => skipped.push(impl.name));
    expect(selected.map((impl) => impl.name)).toEqual(["hono-bun", "hono-deno"]);
    expect(skipped).toEqual([]);
  });
});
