// --restart, end to end through the CLI on real servers: with `cell` every measured cell has a server process of its
// own (a new pid each time, the ratios and the A/A line still produced); with `run` (a smoke run's default) a target's
// cells share the one process started for the run.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Results } from "../src/results/schema.ts";
import { bench, readResults } from "./support/cli.ts";
import { scratchDir } from "./support/scratch.ts";

const scratch = scratchDir("restart");

/** express on hello, three short rounds (smoke: an A/A interval that excludes 1 by chance is noted, not failed). */
const SHORT = [
  ...["--smoke", "--impl", "express", "--scenario", "hello", "--duration", "0.5", "--warmup", "0"],
  ...["--settle", "0.5", "--repeats", "3", "--max-repeats", "3"],
];

/** Each target's pids over its counted cells, in order. */
function pidsByTarget(results: Results): Map<string, Array<number | undefined>> {
  const byTarget = new Map<string, Array<number | undefined>>();
  for (const cell of results.cells.filter((c) => !c.discarded)) {
    byTarget.set(cell.target, [...(byTarget.get(cell.target) ?? []), cell.pid]);
  }
  return byTarget;
}

describe("--restart", () => {
  it("cell: a fresh server process for every measured cell, and the ratios still come out", async () => {
    const out = scratch("cell");
    const run = await bench([...SHORT, "--restart", "cell", "--out", out]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("a fresh process for every server before each of its measured cells");
    const results = await readResults(out);
    expect(results.options).toMatchObject({ restart: "cell" });
    const pids = pidsByTarget(results);
    expect([...pids.keys()].sort()).toEqual(["express", "node-http", "node-http~aa"]);
    for (const [target, list] of pids) {
      expect(list, target).toHaveLength(3);
      expect(
        list.every((pid) => typeof pid === "number"),
        target,
      ).toBe(true);
      expect(new Set(list).size, `${target}: ${list.join(", ")}`).toBe(3);
    }
    // Every pid is a process of its own across targets too, and none of them outlived the run.
    const all = [...pids.values()].flat() as number[];
    expect(new Set(all).size).toBe(all.length);
    for (const pid of all) expect(() => process.kill(pid, 0), `pid ${pid} still runs`).toThrow();
    const express = results.summary.find((r) => r.scenario === "hello" && r.target === "express");
    expect(express?.status).toBe("ok");
    expect(express?.rpsRatio.value).toBeGreaterThan(0);
    expect(express?.rpsRatio.n).toBe(3);
    expect(results.aa?.find((a) => a.scenario === "hello")?.ratio.n).toBe(3);
    // Each cell records its process's start-up, which the report quotes as a median over the fresh processes.
    const counted = results.cells.filter((c) => !c.discarded);
    expect(counted.every((c) => typeof c.startupMs === "number" && c.startupMs > 0)).toBe(true);
    expect(await readFile(join(out, "results.md"), "utf8")).toMatch(/\| express \| [^|]+ \| [\d,]+ \(median of 3\) \|/);
  }, 120_000);

  it("run (a smoke run's default): each target's cells measure the one process started for the run", async () => {
    const out = scratch("run");
    const run = await bench([...SHORT, "--out", out]);
    expect(run.code, run.output).toBe(0);
    const results = await readResults(out);
    expect(results.options).toMatchObject({ restart: "run" });
    for (const [target, list] of pidsByTarget(results)) {
      expect(list, target).toHaveLength(3);
      expect(new Set(list).size, `${target}: ${list.join(", ")}`).toBe(1);
    }
    expect(results.cells.some((c) => c.startupMs !== undefined)).toBe(false);
  }, 120_000);
});
