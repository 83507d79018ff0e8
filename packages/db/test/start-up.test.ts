// What a newcomer sees first from the root scripts: a usage error is the error and the usage, nothing of pnpm's
// around it; `pnpm dev <impl>` says which port is taken, and announces its URL only once the app listens.
import { spawn } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { testServer, uniqueName } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function pnpm(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn("pnpm", args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    output += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return { child, exited, output: () => output };
}

describe("a usage error from a root script", () => {
  it.each([
    ["bench", "--connection", "5"],
    ["test:contract", "--impl", "expresso"],
    ["test:faults", "--shrot"],
    ["db:seed", "--scale", "0"],
  ])("pnpm %s %s … prints the error and the usage, and exits 2", async (...args) => {
    const run = pnpm(args);
    expect(await run.exited).toBe(2);
    const lines = run.output().split("\n");
    expect(lines[0]).toMatch(/^error: /);
    expect(lines[2]).toMatch(new RegExp(`^usage: pnpm ${args[0]}`));
    expect(run.output()).not.toMatch(/ELIFECYCLE|ERR_PNPM|recursive run|^\$ /m);
  });
});

describe("pnpm dev <implementation>", () => {
  it("says which port is taken, before provisioning anything", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const run = pnpm(["dev", "express"], { PORT: String(port) });
      expect(await run.exited).toBe(2);
      expect(run.output()).toBe(
        `error: port ${port} on 127.0.0.1 is taken by another process — stop that process or choose another: PORT=3001 pnpm dev express\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it("announces the URL once the app answers there, and stops on Ctrl-C", async () => {
    const server = await testServer();
    const databaseUrl = await server.createDatabase(uniqueName("dev_start"));
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const run = pnpm(["dev", "express"], { PORT: String(port), DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" });
    try {
      const line = `express on http://127.0.0.1:${port} (docs at /docs); Ctrl-C stops it`;
      const deadline = Date.now() + 60_000;
      while (!run.output().includes(line) && Date.now() < deadline && run.child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(run.output()).toContain(line);
      // Announced means answering: the very next request succeeds.
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
    } finally {
      run.child.kill("SIGINT");
      await run.exited;
      await server.stop();
    }
    expect(run.output()).not.toMatch(/ELIFECYCLE|ERR_PNPM|error:/);
  });
});
