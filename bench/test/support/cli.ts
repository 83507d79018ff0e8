// Runs `pnpm bench`'s CLI as a user would (a child process), for the tests that go end to end on real servers.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Results } from "../../src/results/schema.ts";

export const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

/** The CLI's exit code, everything it printed (stdout and stderr together, in order) and its process id. */
export function bench(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string; pid: number | undefined }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("close", (code) => resolve({ code, output, pid: child.pid }));
  });
}

/** A finished run's results.json. */
export const readResults = async (out: string) =>
  JSON.parse(await readFile(join(out, "results.json"), "utf8")) as Results;
