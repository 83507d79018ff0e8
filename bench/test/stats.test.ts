import { describe, expect, it } from "vitest";
import { summarise } from "../src/analysis/summary.ts";
import type { CellResult, ScenarioInfo, TargetInfo } from "../src/results/schema.ts";
import { median, pairedInterval, percentile, ratio, spread, summariseLatencies, tQuantile975 } from "../src/stats.ts";
import { fakeCell } from "./support/cells.ts";

/**
 * One measured cell of "hello" at 100 connections (test/support/cells.ts), healthy unless told: `p99` sets the
 * latency percentiles around it, `failure` marks the repeat failed (with 3 non-2xx answers), and the server's CPU
 * per request is 1 s / rps unless given.
 */
function helloCell(
  target: string,
  repeat: number,
  rps: number,
  {
    p99 = 3,
    failure,
    cpuMicrosPerRequest = 1e6 / rps,
  }: { p99?: number; failure?: string; cpuMicrosPerRequest?: number } = {},
): CellResult {
  const cell = fakeCell("hello", target, repeat, rps, failure ? { failure } : {});
  if (cell.outcome) {
    cell.outcome.non2xx = failure ? 3 : 0;
    cell.outcome.latency = { p50: p99 / 4, p90: p99 / 2, p99, max: p99 * 2, mean: p99 / 3, count: rps * 5 };
  }
  if (cell.server) cell.server = { ...cell.server, peakRssBytes: 100 * 1048576, cpuMicrosPerRequest };
  return cell;
}

describe("statistics on known inputs", () => {
  it("median of odd and even counts, ignoring values that are not finite", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, Number.NaN, 1, 3])).toBe(3);
    expect(median([])).toBeNaN();
  });

  it("spread is median with min and max", () => {
    expect(spread([10_200, 9_800, 10_000])).toEqual({ median: 10_000, min: 9_800, max: 10_200, n: 3 });
    expect(spread([]).n).toBe(0);
  });

  it("ratio to a baseline, NaN when the baseline is missing or zero", () => {
    expect(ratio(7_000, 10_000)).toBeCloseTo(0.7);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(1, Number.NaN)).toBeNaN();
  });

  it("pairs ratios repeat by repeat: 95% t-interval on their logarithms", () => {
    // repeat 1: 5000/10000 = 0.5, repeat 2: 6000/10000 = 0.6, repeat 3: 4400/8000 = 0.55
    const r = pairedInterval([5_000, 6_000, 4_400], [10_000, 10_000, 8_000]);
    // mean of the logs −0.6006 → 0.5485; sd 0.0912, t(2) = 4.303: ± 0.2265 in log → 0.4373–0.6879
    expect(r.value).toBeCloseTo(0.5485, 3);
    expect(r.low).toBeCloseTo(0.4373, 3);
    expect(r.high).toBeCloseTo(0.6879, 3);
    expect(r.halfWidth).toBeCloseTo(0.2542, 3);
    expect(r.n).toBe(3);
    // identical ratios: no width; one pair: a value but no interval; a missing side is skipped
    expect(pairedInterval([2, 4], [1, 2])).toMatchObject({ value: 2, low: 2, high: 2, halfWidth: 0, n: 2 });
    expect(pairedInterval([2], [1]).halfWidth).toBeNaN();
    expect(pairedInterval([2, Number.NaN, 3], [1, 1, 1.5]).n).toBe(2);
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(100)).toBe(1.96);
  });

  it("nearest-rank percentiles", () => {
    const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    const s = summariseLatencies([5, 1, 4, 2, 3]);
    expect(s).toMatchObject({ p50: 3, max: 5, mean: 3, count: 5 });
  });
});

describe("summary rows", () => {
  const scenarios: ScenarioInfo[] = [{ name: "hello", title: "GET /", kind: "framework", baseline: "node-http" }];
  const targets: TargetInfo[] = [
    {
      name: "node-http",
      role: "baseline",
      framework: "node-http",
      variant: "b",
      language: "typescript",
      baselineFor: "framework",
      versions: {},
    },
    { name: "fast", role: "implementation", framework: "f", variant: "default", language: "typescript", versions: {} },
    {
      name: "broken",
      role: "implementation",
      framework: "b",
      variant: "default",
      language: "typescript",
      versions: {},
    },
  ];

  const cell = (target: string, repeat: number, rps: number, p99: number, failure?: string) =>
    helloCell(target, repeat, rps, { p99, failure });

  it("gives median, min–max and the paired ratio; a failed repeat fails the row", () => {
    const cells = [
      cell("node-http", 1, 20_000, 8),
      cell("node-http", 2, 18_000, 10),
      cell("node-http", 3, 22_000, 9),
      cell("fast", 1, 10_000, 16),
      cell("fast", 2, 10_800, 18),
      cell("fast", 3, 11_000, 20),
      cell("broken", 1, 30_000, 1),
      cell("broken", 2, 30_000, 1, "3 unexpected non-2xx responses (3× 500)"),
    ];
    const rows = summarise(scenarios, targets, cells, []);
    expect(rows.map((r) => r.target)).toEqual(["node-http", "fast", "broken"]);
    const fast = rows.find((r) => r.target === "fast");
    expect(fast?.rps).toEqual({ median: 10_800, min: 10_000, max: 11_000, n: 3 });
    // 10000/20000 = 0.5, 10800/18000 = 0.6, 11000/22000 = 0.5
    // the geometric mean of the paired ratios, (0.5 × 0.6 × 0.5)^(1/3)
    expect(fast?.rpsRatio.value).toBeCloseTo(Math.cbrt(0.5 * 0.6 * 0.5));
    expect(fast?.rpsRatio.n).toBe(3);
    expect(fast?.rpsRatio.low).toBeLessThan(0.5);
    expect(fast?.rpsRatio.high).toBeGreaterThan(0.6);
    expect(fast?.p99Ratio).toBeCloseTo(18 / 9);
    const broken = rows.find((r) => r.target === "broken");
    expect(broken?.status).toBe("failed");
    expect(broken?.failure).toContain("non-2xx");
    expect(broken?.rps.n).toBe(0);
  });

  it("gives each scenario rows only at the connection counts it ran (auth-login's cap), no empty tables", () => {
    const login: ScenarioInfo = {
      name: "auth-login",
      title: "POST /auth/login",
      kind: "database",
      baseline: "node-http",
    };
    const at16 = (target: string) => ({
      ...cell(target, 1, 15, 900),
      scenario: "auth-login" as const,
      connections: 16,
    });
    const rows = summarise(
      [...scenarios, login],
      targets,
      [cell("node-http", 1, 20_000, 8), cell("fast", 1, 10_000, 16), at16("node-http"), at16("fast")],
      // Every scenario verified on every target, as in a real run.
      (["hello", "auth-login"] as const).flatMap((scenario) =>
        ["node-http", "fast"].map((target) => ({ scenario, target, ok: true, checked: 3, failed: 0, failures: [] })),
      ),
    );
    expect(rows.filter((r) => r.scenario === "hello").map((r) => r.connections)).toEqual([100, 100]);
    expect(rows.filter((r) => r.scenario === "auth-login").map((r) => r.connections)).toEqual([16, 16]);
  });

  it("a target that failed verification is failed with the reason, even with no cells", () => {
    const rows = summarise(
      scenarios,
      targets,
      [cell("node-http", 1, 20_000, 8)],
      [
        {
          scenario: "hello",
          target: "broken",
          ok: false,
          checked: 3,
          failed: 3,
          failures: [{ request: "GET /", problem: "status 500, expected 200" }],
        },
      ],
    );
    const broken = rows.find((r) => r.target === "broken");
    expect(broken?.status).toBe("failed");
    expect(broken?.failure).toContain("verification failed (3/3): GET / → status 500");
  });
});

describe("when a scenario has repeated enough", () => {
  // CPU per request steady at 50 µs for the baseline and 100 µs for both implementations
  const cell = (target: string, repeat: number, rps: number) =>
    helloCell(target, repeat, rps, { cpuMicrosPerRequest: target === "base" ? 50 : 100 });

  it("takes the widest headline interval, in CPU per request where the load generator saturated", async () => {
    const { widestInterval } = await import("../src/run.ts");
    const cells = [
      ...[10_000, 10_000, 10_000].map((rps, i) => cell("base", i + 1, rps)),
      // steady: 0.5 in every repeat
      ...[5_000, 5_000, 5_000].map((rps, i) => cell("steady", i + 1, rps)),
      // wandering throughput: 0.4, 0.6, 0.5
      ...[4_000, 6_000, 5_000].map((rps, i) => cell("wandering", i + 1, rps)),
    ];
    const widest = widestInterval(cells, "hello", 100, ["base", "steady", "wandering"], "base");
    expect(widest.target).toBe("wandering");
    expect(widest.halfWidth).toBeGreaterThan(0.5);
    // the same throughput, but the load generator saturated: the steady CPU ratio (0.5 every time) is the headline
    const saturated = cells.map((c) =>
      c.target === "wandering" ? { ...c, loadGenerator: { cpuCores: 0.95, saturated: true } } : c,
    );
    expect(widestInterval(saturated, "hello", 100, ["base", "wandering"], "base").halfWidth).toBe(0);
    // a discarded (disturbed, re-run) cell does not count
    const discarded = [
      ...cells.filter((c) => c.target !== "wandering"),
      { ...cell("wandering", 1, 1_000), discarded: "disturbed" },
    ];
    expect(widestInterval(discarded, "hello", 100, ["base", "wandering"], "base").halfWidth).toBeNaN();
  });
});
