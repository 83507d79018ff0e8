// The per-implementation commands of the root package.json and the start script's own errors.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { implementations, REPO_ROOT } from "../src/index.ts";

describe("root package.json", () => {
  const scripts = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).scripts as Record<string, string>;

  it.each(["dev", "start"])("has a %s:<name> script for every registered implementation, and no other", (kind) => {
    const expected = Object.fromEntries(
      implementations.map((i) => [`${kind}:${i.name}`, `node packages/harness/src/${kind}.ts ${i.name}`]),
    );
    const actual = Object.fromEntries(Object.entries(scripts).filter(([name]) => name.startsWith(`${kind}:`)));
    expect(actual).toEqual(expected);
  });
});

describe("pnpm start:<name>", () => {
  const start = (args: string[], env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, [join(REPO_ROOT, "packages/harness/src/start.ts"), ...args], {
      env: { PATH: process.env.PATH, ...env },
      encoding: "utf8",
    });
  const valid = { DATABASE_URL: "postgres://postgres@127.0.0.1:1/api_ref", JWT_SECRET: "a-secret-of-16-chars-or-more" };

  it.each([
    ["DATABASE_URL is missing", ["express"], { JWT_SECRET: valid.JWT_SECRET }, /^error: DATABASE_URL is not set: /],
    ["DATABASE_URL is not a connection string", ["express"], { ...valid, DATABASE_URL: "db" }, /postgres:\/\//],
    ["JWT_SECRET is too short", ["express"], { ...valid, JWT_SECRET: "short" }, /^error: JWT_SECRET is not set/],
    ["the port is not a port", ["express", "--port", "80a"], valid, /^error: the port \(--port or PORT\)/],
  ] as Array<[string, string[], NodeJS.ProcessEnv, RegExp]>)(
    "exits 2 with one line when %s",
    (_, args, env, message) => {
      const { status, stderr, stdout } = start(args, env);
      expect(status).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stdout).toBe("");
    },
  );

  it("exits 2 naming the registered implementations when the name is unknown", () => {
    const { status, stderr } = start(["nope"], valid);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^error: unknown implementation nope; known: express, /);
    expect(stderr).toContain("usage: pnpm start:<implementation>");
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
