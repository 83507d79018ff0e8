// The root `pnpm dev <name>` and `pnpm start <name>` commands: the names come from the one list of implementations,
// and a mistake on the command line is one line, the usage, exit 2.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { implementations, REPO_ROOT } from "../src/index.ts";

describe.each(["dev", "start"])("pnpm %s <implementation>", (command) => {
  // Through pnpm, as a user types it: the root script is part of what is tested.
  const run = (args: string[]) =>
    spawnSync("pnpm", [command, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, JWT_SECRET: "a-secret-of-32-bytes-or-more-for-hs256" },
      encoding: "utf8",
    });

  it.each([
    ["no implementation is named", [], /^error: name the implementation to run$/],
    ["the name is not registered", ["expresso"], /^error: unknown implementation "expresso"$/],
    ["a second name follows", ["express", "koa"], /^error: unexpected argument "koa"$/],
  ] as Array<[string, string[], RegExp]>)("exits 2 with the error and the usage when %s", (_, args, error) => {
    const { status, stderr, stdout } = run(args);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    const lines = stderr.split("\n");
    expect(lines[0]).toMatch(error);
    expect(lines[2]).toMatch(new RegExp(`^usage: pnpm ${command} <implementation>`));
    expect(stderr).not.toMatch(/\n\s+at |ELIFECYCLE/);
  });

  it("lists every registered implementation in its usage", () => {
    const { status, stdout } = run(["--help"]);
    expect(status).toBe(0);
    const listed = /<implementation> is one of: (.+)/.exec(stdout)?.[1]?.split(", ");
    expect(listed).toEqual(implementations.map((i) => i.name));
  });
});

describe("pnpm start <name>: its environment and port", () => {
  const start = (args: string[], env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, [join(REPO_ROOT, "packages/harness/src/start.ts"), ...args], {
      env: { PATH: process.env.PATH, ...env },
      encoding: "utf8",
    });
  const valid = {
    DATABASE_URL: "postgres://postgres@127.0.0.1:1/api_ref",
    JWT_SECRET: "a-secret-of-32-bytes-or-more-for-hs256",
  };

  it.each([
    ["DATABASE_URL is missing", ["express"], { JWT_SECRET: valid.JWT_SECRET }, /^error: DATABASE_URL is not set: /],
    ["DATABASE_URL is not a connection string", ["express"], { ...valid, DATABASE_URL: "db" }, /postgres:\/\//],
    ["JWT_SECRET is too short", ["express"], { ...valid, JWT_SECRET: "short" }, /^error: JWT_SECRET is not set/],
    ["JWT_SECRET is 31 bytes", ["express"], { ...valid, JWT_SECRET: "x".repeat(31) }, /shorter than 32 bytes/],
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
});
