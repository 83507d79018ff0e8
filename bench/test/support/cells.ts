// A measured cell made up for the tests that check summaries, reports and comparisons on known figures: `rps`
// requests/s over a 5 s run, one core busy (so CPU per request is its inverse), no error; `overrides` for the rest.
import type { CellResult } from "../../src/results.ts";
import type { ScenarioName } from "../../src/scenarios.ts";

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
