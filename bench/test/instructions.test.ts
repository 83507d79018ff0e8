// --count instructions: the option and what it refuses, reading callgrind's dumps, and the figures it feeds — the
// ratio (baseline ÷ target, like CPU per request), the A/A line and --compare's verdicts — on made-up counts.
import { describe, expect, it } from "vitest";
import { compareRuns } from "../src/analysis/compare.ts";
import { DEFAULT_INSTRUCTION_PLAN, SMOKE_INSTRUCTION_PLAN } from "../src/options/instructions.ts";
import { parseOptions } from "../src/options/parse.ts";
import { type BenchOptions, UsageError } from "../src/options/types.ts";
import { renderMarkdown } from "../src/report/markdown.ts";
import type { CellResult, Results } from "../src/results/schema.ts";
import { dumpTotal, underCallgrind } from "../src/runner/callgrind.ts";
import { countedCellSeconds, estimateRun } from "../src/runner/cost.ts";
import { fakeCell, fakeHelloRun, fakeTarget } from "./support/cells.ts";

const parse = (...argv: string[]) => parseOptions(argv) as BenchOptions;

describe("--count instructions", () => {
  it("counts each cell on a fresh process, at 25 connections, as many processes as --repeats", () => {
    const o = parse("--count", "instructions", "--impl", "express", "--repeats", "4");
    expect(o.instructions).toEqual(DEFAULT_INSTRUCTION_PLAN);
    expect(o).toMatchObject({ restart: "cell", repeats: 4, maxRepeats: 4, connections: [25] });
    expect(parse("--count", "instructions", "--smoke").instructions).toEqual(SMOKE_INSTRUCTION_PLAN);
    expect(parse("--count", "instructions", "--connections", "100").connections).toEqual([100]);
    expect(parse("--impl", "express").instructions).toBeUndefined();
  });

  it("estimates a run from its cells' starts, warm-up and counted rounds, not from seconds of load", () => {
    const { min } = estimateRun(parse("--count", "instructions", "--impl", "express", "--scenario", "hello"));
    // node-http, its twin and express, three processes each.
    const cells = 9 * countedCellSeconds(DEFAULT_INSTRUCTION_PLAN, "framework");
    // A database scenario's request costs several times a hello's: its cells are planned longer.
    expect(countedCellSeconds(DEFAULT_INSTRUCTION_PLAN, "database")).toBeGreaterThan((3 * cells) / 9);
    expect(min).toBeGreaterThan(cells);
    expect(min).toBeLessThan(cells + 120);
  });

  it.each([
    [["--count", "cycles"], /--count must be one of instructions/],
    [["--count", "instructions", "--target", "express=http://127.0.0.1:1"], /--target/],
    [["--count", "instructions", "--workers", "2"], /--workers/],
    [["--count", "instructions", "--restart", "run"], /--restart run/],
    [["--count", "instructions", "--profile"], /--profile/],
    [["--count", "instructions", "--rate", "100"], /--rate or --slo/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });

  it("runs the server's own command under callgrind, uninstrumented until the harness turns it on", () => {
    const impl = parse("--impl", "express").impls[0];
    if (!impl) throw new Error("express is registered");
    const wrapped = underCallgrind(impl, "/tmp/dumps");
    expect(wrapped.start.command).toBe("valgrind");
    expect(wrapped.start.args).toEqual(
      expect.arrayContaining([
        "--tool=callgrind",
        "--instr-atstart=no",
        "--callgrind-out-file=/tmp/dumps/callgrind.out.%p",
      ]),
    );
    expect(wrapped.start.args.slice(-impl.start.args.length - 1)).toEqual([impl.start.command, ...impl.start.args]);
  });

  it("reads a dump's total instructions from its totals line, and refuses a dump without one", () => {
    const dump =
      "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\nevents: Ir\nfn=(1) main\n16 3\ntotals: 7101075\n";
    expect(dumpTotal(dump)).toBe(7_101_075);
    expect(dumpTotal("events: Ir\nsummary: 42\n")).toBe(42);
    expect(() => dumpTotal("events: Ir\nfn=(1) main\n")).toThrow(/no totals line|without a totals line/);
  });
});

/** A counted cell: `perRequest` instructions, its rounds within ±1% (requests/s under valgrind, meaningless, at 900). */
const counted = (name: string, repeat: number, perRequest: number): CellResult =>
  fakeCell("hello", name, repeat, 900, {
    connections: 25,
    instructions: { perRequest, rounds: [perRequest * 0.99, perRequest * 1.01], requests: 200, warmupRequests: 300 },
  });

/** node-http at ~70k instructions per request over three processes, its twin within 0.2%, express `factor` × that. */
function countedRun(factor: number): Results {
  const base = [70_000, 70_200, 69_900];
  const twin = [1.001, 0.999, 1.0];
  const express = [1.002, 0.998, 1.001];
  const cells = [
    ...base.map((v, i) => counted("node-http", i + 1, v)),
    ...base.map((v, i) => counted("node-http~aa", i + 1, v * (twin[i] ?? 1))),
    ...base.map((v, i) => counted("express", i + 1, v * factor * (express[i] ?? 1))),
  ];
  const targets = [
    fakeTarget("node-http", "baseline"),
    fakeTarget("node-http~aa", "baseline", "node-http"),
    fakeTarget("express", "implementation"),
  ];
  const options = { connections: [25], repeats: 3, precision: 0.05, instructions: SMOKE_INSTRUCTION_PLAN };
  return fakeHelloRun(targets, cells, options);
}

describe("instruction counts in the figures", () => {
  it("quotes the baseline's instructions over the target's, with its interval, and the A/A line in them", () => {
    const run = countedRun(2);
    const express = run.summary.find((s) => s.target === "express");
    expect(express?.headline).toBe("instructions-per-request");
    expect(express?.insRatio?.value).toBeCloseTo(0.5, 2);
    expect(express?.insRatio?.halfWidth).toBeLessThan(0.01);
    expect(express?.instructionsPerRequest?.median).toBeCloseTo(140_000, -3);
    expect(run.aa?.[0]).toMatchObject({ metric: "instructions-per-request", verdict: "ok" });
    const md = renderMarkdown(run);
    expect(md).toContain("## hello — GET /: instructions per request");
    expect(md).toMatch(/\| express \| 140,\d{3} \(\d{3},\d{3}–\d{3},\d{3}\) \| 0\.50× /);
    expect(md).toContain("not its throughput");
  });

  it("says how many instructions per request a framework adds to its runtime's raw server, with its interval", () => {
    const express = countedRun(2).summary.find((s) => s.target === "express");
    // express is 2 × node-http process by process (±0.2%): it adds node-http's own count, ~70,000, within ±0.5%.
    expect(express?.insAdded?.mean).toBeCloseTo(70_080, -2);
    expect(express?.insAdded?.n).toBe(3);
    expect(express?.insAdded?.low).toBeGreaterThan(69_500);
    expect(express?.insAdded?.high).toBeLessThan(70_600);
    expect(renderMarkdown(countedRun(2))).toMatch(
      /\| express \| .* \| \+70,\d{3} \(\+69,\d{3} to \+70,\d{3}\) \| ±1\.0% \|/,
    );
  });

  it("--compare says can't tell or no change for a run against itself, and slower for 10% more instructions", () => {
    const run = (label: "OLD" | "NEW", results: Results) => ({ label, shown: label, dir: label, results });
    const same = compareRuns(run("OLD", countedRun(2)), run("NEW", countedRun(2)));
    expect(same.changes[0]?.metric).toBe("instructions-per-request");
    expect(same.changes[0]?.verdict).toMatch(/^(no change|can't tell)/);
    const heavier = compareRuns(run("OLD", countedRun(2)), run("NEW", countedRun(2.2)));
    expect(heavier.changes[0]?.verdict).toBe("slower");
    const wallClock = { ...countedRun(2), options: { connections: [25], repeats: 3, precision: 0.05 } };
    expect(() => compareRuns(run("OLD", wallClock), run("NEW", countedRun(2)))).toThrow(
      "OLD measures requests/s and NEW counts instructions (--count instructions): compare two runs of the same kind",
    );
  });
});
