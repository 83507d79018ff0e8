// A measured cell made up for the tests that check summaries, reports and comparisons on known figures: `rps`
// requests/s over a 5 s run, one core busy (so CPU per request is its inverse), no error; `overrides` for the rest.
import { aaLines, resolutionOf } from "../../src/analysis/aa.ts";
import { summarise } from "../../src/analysis/summary.ts";
import type { CellResult, Results, TargetInfo } from "../../src/results/schema.ts";
import type { ScenarioName } from "../../src/scenarios/catalog.ts";

export function fakeCell(
  scenario: ScenarioName,
  target: string,
  repeat: number,
  rps: number,
  overrides: Partial<CellResult> = {},
): CellResult {
  return {
    scenario,
    connections: 100,
    repeat,
    target,
    position: 1,
    outcome: {
      durationS: 5,
      completed: rps * 5,
      requestsPerSecond: rps,
      statusCounts: { 200: rps * 5 },
      non2xx: 0,
      errors: 0,
      timeouts: 0,
      latency: { p50: 1, p90: 2, p99: 3, max: 4, mean: 1, count: rps * 5 },
    },
    server: { cpuCores: 1, cpuSeconds: 5, peakRssBytes: 1e8, cpuMicrosPerRequest: 1e6 / rps },
    loadGenerator: { cpuCores: 0.5, saturated: false },
    ...overrides,
  };
}

/** What every made-up run has besides its own figures: the machine, pinning, PostgreSQL and versions (new objects each call). */
export const fakeRunContext = (): Pick<
  Results,
  "schemaVersion" | "command" | "machine" | "pinning" | "postgres" | "versions" | "seed" | "scale" | "verification"
> => ({
  schemaVersion: 2,
  command: [],
  machine: {
    hostname: "h",
    platform: "linux",
    kernel: "6.1",
    arch: "x64",
    cpuModel: "Test CPU",
    logicalCpus: 2,
    memoryBytes: 8 * 2 ** 30,
    node: "v24.0.0",
    v8: "13",
    loadAverage1m: 0.1,
  },
  pinning: { taskset: true, server: "cpu 0", loadGenerator: "cpu 1", postgres: "–", harness: "cpu 1", note: "" },
  postgres: { provider: "embedded", version: "PostgreSQL 18", settings: {} },
  versions: { node: "v24.0.0" },
  seed: 1,
  scale: 1,
  verification: [],
});

/** A target of a made-up run on Node. */
export const fakeTarget = (name: string, role: TargetInfo["role"], twinOf?: string): TargetInfo => ({
  name,
  role,
  framework: name,
  variant: "default",
  language: "typescript",
  runtime: "node",
  ...(twinOf ? { twinOf } : {}),
  versions: {},
});

/** A made-up run of "hello" (baseline node-http) from its targets and cells: summary and A/A lines derived. */
export function fakeHelloRun(
  targets: TargetInfo[],
  cells: CellResult[],
  options: Record<string, unknown>,
  startedAt = "2026-11-29T00:00:00.000Z",
): Results {
  const scenarios: Results["scenarios"] = [{ name: "hello", title: "GET /", kind: "framework", baseline: "node-http" }];
  const summary = summarise(scenarios, targets, cells, []);
  const aa = aaLines(summary, targets);
  return {
    ...fakeRunContext(),
    startedAt,
    finishedAt: startedAt,
    options,
    rows: { users: 1000, products: 5000, orders: 10000 },
    targets,
    scenarios,
    cells,
    summary,
    split: [],
    aa,
    resolution: resolutionOf(aa),
  };
}
