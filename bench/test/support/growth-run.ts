// A growth run of known figures at scales 1, 10 and 100, made up for the tests of its analysis and report: each scale
// measured and analysed as runBench does (runner/record.ts's analyse and combineScales), its cells made up.
import type { CellResult, Results, ScenarioInfo, TargetInfo } from "../../src/results/schema.ts";
import { analyse, combineScales, type ScalePass } from "../../src/runner/record.ts";
import type { ScenarioName } from "../../src/scenarios/catalog.ts";
import { fakeCell, fakeRunContext } from "./cells.ts";

const SCENARIOS: ScenarioInfo[] = [
  { name: "orders-list", title: "GET /orders", kind: "database", baseline: "node-http-pg" },
  { name: "orders-deep-page", title: "GET /orders?page=N", kind: "database", baseline: "node-http-pg" },
];
const target = (name: string, role: TargetInfo["role"]): TargetInfo => ({
  name,
  role,
  framework: name,
  variant: "default",
  language: "typescript",
  ...(role === "baseline" ? { baselineFor: "database" as const } : {}),
  startupMs: 300,
  idleRssBytes: 80 * 1048576,
  versions: {},
});
const TARGETS = [target("node-http-pg", "baseline"), target("express", "implementation")];

/** Requests/s per repeat: spread by e^±sd around a level, so that a level's log has mean log(level) and that sd. */
const around = (level: number, sd = 0.1) => [level, level * Math.exp(sd), level * Math.exp(-sd)];

/** Each scale's cells: requests/s per scenario and target, PostgreSQL µs per request the inverse of a tenth of it. */
type Figures = Partial<Record<ScenarioName, Record<string, number[]>>>;

/** One scale measured and analysed as the run does it, its cells made up. */
function pass(scale: number, figures: Figures, failed: string[] = []): ScalePass {
  const cells: CellResult[] = Object.entries(figures).flatMap(([scenario, byTarget]) =>
    Object.entries(byTarget ?? {}).flatMap(([name, values]) =>
      values.map((rps, i) =>
        fakeCell(scenario as ScenarioName, name, i + 1, rps, {
          postgres: { cpuCores: 0.5, cpuMicrosPerRequest: 1e5 / rps },
          ...(failed.includes(name) ? { failure: "3 timeouts" } : {}),
        }),
      ),
    ),
  );
  const measured = { cells, verification: [], curve: [], capacity: [], probes: [] };
  const rows = { users: 1000 * scale, products: 5000 * scale, orders: 10_000 * scale };
  return { scale, rows, measured, analysis: analyse(SCENARIOS, TARGETS, measured) };
}

/** A growth run at 1, 10 and 100 of known figures. */
export function growthResults(): Results {
  const passes = [
    pass(1, {
      "orders-list": { "node-http-pg": around(1000, 0.02), express: around(500) },
      "orders-deep-page": { "node-http-pg": around(1000), express: around(500) },
    }),
    pass(10, {
      "orders-list": { "node-http-pg": around(950, 0.02), express: around(400) },
      "orders-deep-page": { "node-http-pg": around(100), express: around(80) },
    }),
    pass(
      100,
      {
        "orders-list": { "node-http-pg": around(500, 0.02), express: around(450) },
        "orders-deep-page": { "node-http-pg": around(10), express: around(9) },
      },
      ["express"],
    ),
  ];
  const { measured, analysis, scales } = combineScales(passes, "sequential");
  return {
    ...fakeRunContext(),
    startedAt: "2026-01-02T03:04:05.000Z",
    finishedAt: "2026-01-02T03:14:05.000Z",
    options: {
      connections: [100],
      durationS: 3,
      warmupS: 2,
      repeats: 3,
      pipelining: 1,
      poolSize: 10,
      verifySample: 24,
    },
    rows: passes[0]?.rows ?? { users: 0, products: 0, orders: 0 },
    ...(scales ? { scales } : {}),
    targets: TARGETS,
    scenarios: SCENARIOS,
    verification: measured.verification,
    cells: measured.cells,
    summary: analysis.summary,
    split: analysis.split,
    aa: analysis.aa,
    resolution: analysis.resolution,
  };
}
