// A growth run (--scale with several values): its options, each scale's own seeded data, the ratio of a target's
// throughput at each scale to the smallest scale's with its interval and the 80% bar, the report's growth section
// (its chart in Chromium: report.test.ts), and one end-to-end smoke run at two tiny scales.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type PostgresServer, provisionPostgres } from "@api-ref/db/provision";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { growthLines, keptOf, throughputRatio } from "../src/analysis/growth.ts";
import { parseOptions } from "../src/options/parse.ts";
import { type BenchOptions, UsageError } from "../src/options/types.ts";
import { growthConsoleLines } from "../src/report/growth.ts";
import { renderHtml } from "../src/report/html.ts";
import { renderMarkdown } from "../src/report/markdown.ts";
import { writeReports } from "../src/report/write.ts";
import { atScale, scalesOf } from "../src/results/scales.ts";
import { prepareData } from "../src/runner/data.ts";
import { fakeCell } from "./support/cells.ts";
import { bench, readResults } from "./support/cli.ts";
import { growthResults } from "./support/growth-run.ts";
import { scratchDir } from "./support/scratch.ts";

const scratch = scratchDir("growth");

const parse = (...argv: string[]) => parseOptions(argv) as BenchOptions;

describe("--scale as a list", () => {
  it("takes one scale as before, and a list ascending", () => {
    expect(parse().scales).toEqual([1]);
    expect(parse("--scale", "2").scales).toEqual([2]);
    expect(parse("--scale", "100,1,10").scales).toEqual([1, 10, 100]);
    expect(parse("--scale", "0.05, 0.1").scales).toEqual([0.05, 0.1]);
  });

  it.each([
    [["--scale", "1,10,1"], /--scale names 1 twice/],
    [["--scale", "1,0"], /--scale must be greater than 0/],
    [["--scale", "1,1000000"], /--scale must be at most/],
    [["--scale", "1,x"], /--scale must be a number, got "x"/],
    [["--scale", "1,0.0001"], /too small to hold the fixture rows/],
    [["--scale", ","], /--scale needs at least one value/],
    [["--scale", "1,10", "--profile"], /not with --profile/],
    [["--scale", "1,10", "--slo", "p99<50ms"], /not with --slo/],
    [["--scale", "1,10", "--rate", "100,200"], /not with a --rate list or ramp/],
    [["--scale", "1,10", "--target", "express=http://127.0.0.1:1"], /not with --target/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });

  it("records the smallest as scale, and the list only in a growth run", async () => {
    const { recordedOptions } = await import("../src/options/table.ts");
    expect(recordedOptions(parse())).toMatchObject({ scale: 1 });
    expect(recordedOptions(parse())).not.toHaveProperty("scales");
    expect(recordedOptions(parse("--scale", "10,1"))).toMatchObject({ scale: 1, scales: [1, 10] });
  });

  it("estimates a growth run as every scale measured in turn, with its seeding", async () => {
    const { estimateRun } = await import("../src/runner/cost.ts");
    const one = estimateRun(parse("--impl", "express", "--scenario", "orders-list", "--budget", "600"));
    const three = estimateRun(parse("--impl", "express", "--scenario", "orders-list", "--scale", "1,10,100"));
    expect(three.min).toBeGreaterThan(3 * one.min);
    expect(three.min).toBeLessThan(3 * one.min + 120);
  });
});

describe("throughput against the smallest scale", () => {
  const results = growthResults();

  it("tags every cell and row with its scale, each scale analysed on its own", () => {
    expect(scalesOf(results)).toEqual([1, 10, 100]);
    expect(new Set(results.cells.map((c) => c.scale))).toEqual(new Set([1, 10, 100]));
    const at10 = atScale(results, 10);
    expect(at10.rows.orders).toBe(100_000);
    expect(at10.cells.every((c) => c.scale === 10)).toBe(true);
    // express ÷ node-http-pg within scale 10: 400 ÷ 950
    const express = at10.summary.find((s) => s.scenario === "orders-list" && s.target === "express");
    expect(express?.rpsRatio.value).toBeCloseTo(400 / 950, 6);
  });

  it("combines the two scales' repeats as independent samples (Student's t, Welch's degrees of freedom)", () => {
    // Each level: log sd 0.1 over 3 repeats; their ratio's log variance 2 × 0.01/3, 4 degrees of freedom (t = 2.776).
    const ratio = throughputRatio(
      results.cells,
      { scenario: "orders-list", connections: 100, target: "express" },
      1,
      10,
      false,
    );
    const half = 2.776 * Math.sqrt((2 * 0.01) / 3);
    expect(ratio.value).toBeCloseTo(0.8, 9);
    expect(ratio.low).toBeCloseTo(0.8 * Math.exp(-half), 3);
    expect(ratio.high).toBeCloseTo(0.8 * Math.exp(half), 3);
  });

  it("pairs an interleaved run's scales round by round: a drift that moves both sides leaves no spread", () => {
    // Each round at scale 10 is 0.85 of the same round at scale 1 while both drift together by ±30%.
    const drift = [1, 1.3, 0.7, 1.15];
    const cells = drift.flatMap((d, i) => [
      { ...fakeCell("orders-list", "express", i + 1, 500 * d), scale: 1 },
      { ...fakeCell("orders-list", "express", i + 1, 425 * d), scale: 10 },
    ]);
    // A round one scale did not finish is left out of the pairs, not matched to another round.
    cells.push({ ...fakeCell("orders-list", "express", 5, 100), scale: 1 });
    const where = { scenario: "orders-list", connections: 100, target: "express" } as const;
    const paired = throughputRatio(cells, where, 1, 10, true);
    expect(paired.value).toBeCloseTo(0.85, 9);
    expect(paired.n).toBe(4);
    expect(paired.halfWidth).toBeCloseTo(0, 9);
    // Taken as independent samples, the same cells cannot tell 0.85 from the bar.
    const unpaired = throughputRatio(
      cells.filter((c) => c.repeat <= 4),
      where,
      1,
      10,
      false,
    );
    expect(unpaired.value).toBeCloseTo(0.85, 9);
    expect(keptOf(unpaired, true)).toBe("cannot tell");
    expect(keptOf(paired, true)).toBe("kept");
  });

  it("holds each ratio to the 80% bar: kept, lost, cannot tell when it straddles, failed, not judged by design", () => {
    const lines = growthLines(results);
    const steps = (scenario: string, name: string) =>
      lines.find((l) => l.scenario === scenario && l.target === name)?.steps.map((s) => s.kept);
    expect(steps("orders-list", "node-http-pg")).toEqual(["kept", "lost"]);
    expect(steps("orders-list", "express")).toEqual(["cannot tell", "failed"]);
    expect(steps("orders-deep-page", "node-http-pg")).toEqual(["not judged", "not judged"]);
    expect(keptOf({ value: 0.85, low: 0.8, high: 0.9, halfWidth: 0.06, n: 3 }, true)).toBe("kept");
    expect(keptOf({ value: 0.85, low: Number.NaN, high: Number.NaN, halfWidth: Number.NaN, n: 1 }, true)).toBe(
      "cannot tell",
    );
  });

  it("says it on the console, one line per scenario and target", () => {
    const lines = growthConsoleLines(results);
    expect(lines).toContain("orders-list express: 1→10 ×0.80 [0.64, 1.00] cannot tell; 1→100 FAILED");
    expect(lines.find((l) => l.startsWith("orders-list node-http-pg"))).toMatch(
      /1→10 ×0\.95 \[.*\] kept; 1→100 ×0\.50/,
    );
    expect(lines.find((l) => l.startsWith("orders-deep-page node-http-pg"))).toMatch(/1→100 ×0\.01 \[[^\]]+\]$/);
  });
});

describe("the growth section", () => {
  const results = growthResults();

  it("opens results.md with a table per scenario, then each scale as a run of its own", () => {
    const md = renderMarkdown(results);
    expect(md).toContain("data scales 1 (10000 orders), 10 (100000 orders), 100 (1000000 orders)");
    const growth = md.indexOf("## Growth: cost against data size");
    expect(growth).toBeGreaterThan(0);
    expect(md.indexOf("# At scale 1 (10000 orders)")).toBeGreaterThan(growth);
    expect(md.indexOf("# At scale 100 (1000000 orders)")).toBeGreaterThan(md.indexOf("# At scale 10 (100000 orders)"));
    expect(md).toContain(
      "| implementation | req/s at 1 | req/s at 10 | req/s at 100 | PG µs/req at 1 | PG µs/req at 10 | PG µs/req at 100 " +
        "| 10 ÷ 1 (95% CI) | 100 ÷ 1 (95% CI) |",
    );
    expect(md).toMatch(
      /\| \*node-http-pg\* \(baseline\) \| 1,000 \(980–1,020\) \| 950 .*\| 0\.95× \(0\.91–0\.99\) \*\*kept\*\* \| 0\.50× .*\*\*lost\*\* \|/,
    );
    expect(md).toMatch(
      /\| express \| 500 .*\| FAILED \| .*\| 0\.80× \(0\.64–1\.00\) \*cannot tell\* \| – \*\*FAILED\*\* \|/,
    );
    expect(md).toMatch(/\| 0\.01× \([^)]+\) \*not judged\* \|/);
  });

  it("is refused by --compare, whose rows would mix its scales", async () => {
    const { loadRun } = await import("../src/modes/compare.ts");
    const dir = scratch("compare");
    await writeReports(growthResults(), dir);
    expect(() => loadRun("OLD", dir, "/")).toThrow(/is a growth run \(--scale 1,10,100\)/);
  });

  it("renders a one-scale run's results as it always has: no growth section", async () => {
    const example = JSON.parse(await readFile(join(import.meta.dirname, "../results/example/results.json"), "utf8"));
    expect(scalesOf(example)).toEqual([1]);
    expect(renderMarkdown(example)).not.toContain("Growth");
    expect(renderHtml(example)).not.toContain("growth");
  });
});

describe("each scale's own seeded data (embedded PostgreSQL)", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await provisionPostgres();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("seeds a template per scale, each with its rows and its own order pages", async () => {
    const options = parse("--scale", "0.05,0.1");
    const io = { progress: { done() {}, update() {} } as never, log: () => {} };
    const small = await prepareData(options, 0.05, server, 1, "secret", io);
    const large = await prepareData(options, 0.1, server, 1, "secret", io);
    expect(small.templateName).toBe("bench_template_0_05");
    expect(large.templateName).toBe("bench_template_0_1");
    expect(small.rows.orders).toBe(500);
    expect(large.rows.orders).toBe(1000);
    expect(small.pools.orderPages.total).toBe(500);
    expect(large.pools.orderPages.total).toBe(1000);
  }, 300_000);
});

describe("a growth run end to end", () => {
  it("measures every scenario at two tiny scales and reports their growth", async () => {
    const out = scratch("smoke");
    const run = await bench([
      "--smoke",
      "--impl",
      "express",
      "--scenario",
      "orders-list,orders-cursor-walk",
      "--scale",
      "0.05,0.1",
      "--no-pin",
      "--out",
      out,
    ]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/seeded .* 500 orders \(scale 0\.05\)/);
    expect(run.output).toMatch(/seeded .* 1000 orders \(scale 0\.1\)/);
    expect(run.output).toMatch(/growth: orders-cursor-walk express: 0\.05→0\.1 ×\d/);
    const results = await readResults(out);
    expect(results.scales?.map((s) => s.scale)).toEqual([0.05, 0.1]);
    const express = results.cells.filter((c) => c.target === "express" && !c.discarded);
    expect(express.map((c) => `${c.scenario}@${c.scale}`)).toEqual([
      "orders-list@0.05",
      "orders-list@0.05",
      "orders-cursor-walk@0.05",
      "orders-cursor-walk@0.05",
      "orders-list@0.1",
      "orders-list@0.1",
      "orders-cursor-walk@0.1",
      "orders-cursor-walk@0.1",
    ]);
    expect(results.scaleOrder).toBe("sequential");
    const md = await readFile(join(out, "results.md"), "utf8");
    expect(md).toContain("## Growth: cost against data size");
    expect(md).toContain("### orders-cursor-walk");
    expect(md).toContain("# At scale 0.1 (1000 orders)");
  }, 900_000);

  it("with a fresh process per cell, measures the scales round by round, each server on its copy of each", async () => {
    const out = scratch("interleaved");
    const run = await bench([
      "--smoke",
      "--restart",
      "cell",
      // A fresh process answers its first walks slowly: long enough cells that every one counts some.
      "--warmup",
      "1",
      "--duration",
      "0.5",
      "--impl",
      "express",
      "--scenario",
      "orders-cursor-walk",
      "--scale",
      "0.05,0.1",
      "--repeats",
      "2",
      "--no-pin",
      "--out",
      out,
    ]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("growth: scales 0.05, 0.1 measured round by round");
    expect(run.output).toMatch(/growth: orders-cursor-walk express: 0\.05→0\.1 ×\d/);
    const results = await readResults(out);
    expect(results.scaleOrder).toBe("interleaved");
    const express = results.cells
      .filter((c) => c.target === "express" && !c.discarded)
      .sort((a, b) => Date.parse(a.startedAt ?? "") - Date.parse(b.startedAt ?? ""));
    // The order of the scales turns each round, so neither is always measured first.
    expect(express.map((c) => `${c.repeat}@${c.scale}`)).toEqual(["1@0.05", "1@0.1", "2@0.1", "2@0.05"]);
    // Each scale verified on its own copy of its data, and analysed on its own.
    expect(results.verification.map((v) => `${v.target}@${v.scale}:${v.ok}`)).toContain("express@0.1:true");
    expect(results.verification.map((v) => `${v.target}@${v.scale}:${v.ok}`)).toContain("express@0.05:true");
    const line = results.summary.filter((s) => s.target === "express").map((s) => s.scale);
    expect(line).toEqual([0.05, 0.1]);
  }, 900_000);
});
