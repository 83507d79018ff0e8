// pnpm bench --compare: two fake runs (results objects built from fake cells, as in report.test.ts), one target per
// verdict, and the command itself on files in a temporary directory.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { compareRuns } from "../src/analysis/compare.ts";
import { compareCli, loadRun } from "../src/modes/compare.ts";
import type { CellResult, Results } from "../src/results/schema.ts";
import { fakeCell, fakeHelloRun, fakeTarget } from "./support/cells.ts";

const CLI = join(import.meta.dirname, "..", "src", "cli.ts");

/**
 * A run of "hello" at 100 connections: node-http at 20,000 req/s (±5% over three repeats), its A/A twin within 1%
 * of it, and each implementation at the given ratios to the baseline, repeat by repeat.
 */
function fakeRun(startedAt: string, ratios: Record<string, number[]>): Results {
  const baseline = [20_000, 21_000, 19_000];
  const rps: Record<string, number[]> = { "node-http": baseline, "node-http~aa": [1, 1.01, 0.99] };
  for (const [name, r] of Object.entries(ratios)) rps[name] = r;
  const cells: CellResult[] = Object.entries(rps).flatMap(([name, values]) =>
    values.map((v, i) => fakeCell("hello", name, i + 1, name === "node-http" ? v : v * (baseline[i] as number))),
  );
  const targets = [
    fakeTarget("node-http", "baseline"),
    fakeTarget("node-http~aa", "baseline", "node-http"),
    ...Object.keys(ratios).map((name) => fakeTarget(name, "implementation")),
  ];
  return fakeHelloRun(targets, cells, { connections: [100], durationS: 5, precision: 0.05 }, startedAt);
}

// fastify-zod gains 20%, express loses 17%, koa moves 1.7% (tight), hapi's repeats are too scattered to tell.
const OLD = fakeRun("2026-01-02T03:04:05.000Z", {
  "fastify-zod": [0.5, 0.505, 0.495],
  express: [0.6, 0.606, 0.594],
  koa: [0.6, 0.602, 0.598],
  hapi: [0.5, 0.7, 0.6],
  hono: [0.9, 0.91, 0.89],
});
const NEW = fakeRun("2026-01-03T03:04:05.000Z", {
  "fastify-zod": [0.6, 0.606, 0.594],
  express: [0.5, 0.505, 0.495],
  koa: [0.61, 0.612, 0.608],
  hapi: [0.55, 0.8, 0.65],
});
NEW.machine.loadAverage1m = 0.35;

let dir: string;
const write = async (name: string, results: unknown) => {
  await mkdir(join(dir, name), { recursive: true });
  await writeFile(join(dir, name, "results.json"), JSON.stringify(results));
  return join(dir, name);
};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "bench-compare-"));
  await write("old", OLD);
  await write("new", NEW);
  await write("no-aa", { ...OLD, aa: undefined, resolution: undefined });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// pnpm sets INIT_CWD to where it was typed: paths are relative to it.
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, INIT_CWD: dir }, encoding: "utf8" });

describe("comparing two runs", () => {
  const comparison = () => compareRuns(loadRun("OLD", "old", dir), loadRun("NEW", "new/results.json", dir));
  const verdict = (name: string) => comparison().changes.find((c) => c.target === name)?.verdict;

  it("says faster, slower, no change and can't tell from the ratios to the same-run baseline", () => {
    expect(verdict("fastify-zod")).toBe("faster");
    expect(verdict("express")).toBe("slower");
    // the band: both runs' resolution (their ±5% precision, wider than their ±2.5% A/A lines) in quadrature
    expect(verdict("koa")).toBe("no change (within ±7.1%)");
    expect(verdict("hapi")).toBe("can't tell");
    const fastify = comparison().changes.find((c) => c.target === "fastify-zod");
    expect(fastify?.change.value).toBeCloseTo(1.2, 3);
  });

  it("prints the runs, both A/A lines, the band, each change and what only one run has", () => {
    const { stdout, status } = cli("--compare", "old", "new", "--out", "out");
    expect(status).toBe(0);
    expect(stdout).toContain("| started | 2026-01-02 03:04 UTC | 2026-01-03 03:04 UTC |");
    expect(stdout).toContain(
      "- OLD: hello @100: node-http~aa ÷ node-http = 1.000× (0.975–1.025), ±2.5% in requests/s — ok",
    );
    expect(stdout).toContain("| load average at start | 0.10 | 0.35 |");
    expect(stdout).toContain(
      "A comparison across runs is only as good as the A/A lines of both runs: differences under ±7.1% cannot be told apart here.",
    );
    expect(stdout).toMatch(
      /\| hello \| 100 \| fastify-zod \| requests\/s \| 0\.50× \(0\.49–0\.51\) \| 0\.60× .*\| 1\.20× .*\| faster \|/,
    );
    expect(stdout).toMatch(/\| hello \| 100 \| express \| .*\| 0\.83× .*\| slower \|/);
    expect(stdout).toContain("4 compared: 1 faster, 1 slower, 1 no change, 1 can't tell.");
    expect(stdout).toContain("- hono on hello at 100 connections: only in OLD");
  });

  it("writes compare.md and a self-contained compare.html", async () => {
    cli("--compare", "old", "new", "--out", "written");
    const md = await readFile(join(dir, "written", "compare.md"), "utf8");
    const html = await readFile(join(dir, "written", "compare.html"), "utf8");
    expect(md).toContain("| faster |");
    expect(html).toContain('<td class="slower">slower</td>');
    expect(html).toContain("differences under ±7.1% cannot be told apart here");
    expect(html).not.toMatch(/<script|src=|href=/);
  });

  it("takes the most recent timestamped run as NEW when given one run, and says which", async () => {
    const root = join(dir, "results");
    await write("results/2026-01-01T00-00-00Z", NEW);
    await write("results/2026-01-03T00-00-00Z", OLD);
    await write("results/2026-01-02T00-00-00Z", NEW);
    vi.spyOn(process.stdout, "write").mockReturnValue(true);
    const stderr = vi.spyOn(process.stderr, "write").mockReturnValue(true);
    const code = await compareCli(["--compare", "results/2026-01-03T00-00-00Z", "--out", "latest"], {
      cwd: dir,
      resultsRoot: root,
    });
    vi.restoreAllMocks();
    expect(code).toBe(0);
    expect(stderr.mock.calls.join("")).toContain("NEW is results/2026-01-02T00-00-00Z, the most recent run");
    expect(existsSync(join(dir, "latest", "compare.md"))).toBe(true);
  });
});

describe("refusals (exit code 2)", () => {
  it("a run without an A/A line", () => {
    const { stderr, status } = cli("--compare", "no-aa", "new");
    expect(status).toBe(2);
    expect(stderr).toContain(
      "error: OLD has no A/A line (written before the bench measured one, or a --target run): re-run it with the current bench; comparisons across runs are only as good as the A/A lines of both runs",
    );
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });

  it("a path that is not there, a file that is not a results.json, runs with no scenario in common, bad usage", async () => {
    await writeFile(join(dir, "other.json"), "{}");
    await write("echo-only", { ...NEW, scenarios: [{ name: "echo", title: "POST /echo", kind: "framework" }] });
    expect(cli("--compare", "old", "missing").stderr).toContain("NEW: missing does not exist");
    expect(cli("--compare", "other.json", "new").stderr).toContain("OLD: other.json is not a results.json");
    expect(cli("--compare", "old", "echo-only").stderr).toContain("OLD and NEW have no scenario in common");
    const usage = cli("--compare", "old", "new", "third");
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("usage: pnpm bench --compare OLD [NEW] [--out DIR]");
  });
});
