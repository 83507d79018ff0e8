// Memory samples of a process and what the soak reports from them: the mean of the first and of the last quarter
// of the samples, and the growth between the two.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { send } from "@api-ref/harness";

/** The preload that gives heap-used-after-GC of a Node process on a side port. */
export const HEAP_PROBE = fileURLToPath(new URL("./heap-probe.ts", import.meta.url));

/** NODE_OPTIONS for a Node implementation under soak: GC exposed and the probe preloaded. */
export function heapProbeEnv(port: number, existing = process.env.NODE_OPTIONS): Record<string, string> {
  const options = [existing, "--expose-gc", `--import=${JSON.stringify(HEAP_PROBE)}`].filter(Boolean).join(" ");
  return { NODE_OPTIONS: options, FAULTS_HEAP_PROBE_PORT: String(port) };
}

/** Resident set size of `pid` in bytes, from /proc (Linux) or ps. */
export async function rssOf(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // not Linux, or gone
  }
  return new Promise((resolve) =>
    execFile("ps", ["-o", "rss=", "-p", String(pid)], (error, stdout) =>
      resolve(error || !stdout.trim() ? null : Number(stdout.trim()) * 1024),
    ),
  );
}

/** Heap used right after a full GC, from the probe; null when the process has none (not Node, or no port). */
export async function heapAfterGc(port: number, pid: number): Promise<number | null> {
  const outcome = await send(`http://127.0.0.1:${port}`, { method: "GET", path: "/" }, { timeoutMs: 10_000 });
  if (outcome.status !== 200) return null;
  const body = JSON.parse(outcome.text) as { pid: number; heapUsed: number };
  return body.pid === pid ? body.heapUsed : null;
}

export interface QuarterGrowth {
  first: number;
  last: number;
  /** (last − first) / first, in percent. */
  growthPct: number;
}

/** Mean of the first and the last quarter of `samples` (at least 4), and the growth between them. */
export function quarterGrowth(samples: readonly number[]): QuarterGrowth | null {
  if (samples.length < 4) return null;
  const quarter = Math.floor(samples.length / 4);
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const first = mean(samples.slice(0, quarter));
  const last = mean(samples.slice(samples.length - quarter));
  return { first, last, growthPct: first === 0 ? 0 : ((last - first) / first) * 100 };
}
