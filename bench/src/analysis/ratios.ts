// A target's ratios to a baseline from raw cells: which cells count, how they pair, the intervals, and which of
// throughput, CPU per request or instructions per request to quote.
import type { CellResult, SummaryRow } from "../results/schema.ts";
import type { ScenarioName } from "../scenarios/types.ts";
import { type Interval, type MeanDifference, pairedDifference, pairedInterval, productInterval } from "../stats.ts";

/** The load generator's CPU (fraction of one core) from which a figure is flagged as possibly capped by it. */
export const LOADGEN_SATURATION = 0.9;

/** One figure of each cell, NaN where the cell has none. */
export const fig = (cells: CellResult[], pick: (c: CellResult) => number | undefined) =>
  cells.map((c) => pick(c) ?? Number.NaN);

export const rpsOf = (c: CellResult) => c.outcome?.requestsPerSecond;
export const cpuOf = (c: CellResult) => c.server?.cpuMicrosPerRequest;
export const insOf = (c: CellResult) => c.instructions?.perRequest;

/** The figure a ratio is quoted in: requests/s, CPU per request, or (--count instructions) instructions per request. */
export type Metric = SummaryRow["headline"];
export const METRIC: Record<Metric, string> = {
  throughput: "requests/s",
  "cpu-per-request": "CPU/request",
  "instructions-per-request": "instructions/request",
};

/** A row's ratio in `metric` (runs written before instruction counts have no insRatio: no interval). */
export function ratioIn(row: Pick<SummaryRow, "rpsRatio" | "cpuRatio" | "insRatio">, metric: Metric) {
  if (metric === "instructions-per-request") return row.insRatio ?? pairedInterval([], []);
  return metric === "cpu-per-request" ? row.cpuRatio : row.rpsRatio;
}
/** The CPU per request a ratio compares: in duet, the control group's (server and its backends); else the server's. */
const ratioCpuOf = (c: CellResult) =>
  c.group && c.outcome?.completed ? (c.group.cpuSeconds * 1e6) / c.outcome.completed : cpuOf(c);

/** The cells that count for one target: discarded (replaced) runs left out, one per repeat, in repeat order. */
export function countedCells(
  cells: readonly CellResult[],
  scenario: ScenarioName,
  connections: number,
  target: string,
): CellResult[] {
  return cells
    .filter((c) => c.scenario === scenario && c.connections === connections && c.target === target && !c.discarded)
    .sort((a, b) => a.repeat - b.repeat);
}

/** Two targets' values paired: duet cells with the cell they ran beside (same `pair.id`), sequential ones by repeat. */
function paired(a: CellResult[], b: CellResult[], pick: (c: CellResult) => number | undefined) {
  const values: number[] = [];
  const baselines: number[] = [];
  for (const cell of a) {
    const other = cell.pair
      ? b.find((c) => c.pair?.id === cell.pair?.id)
      : b.find((c) => !c.pair && c.repeat === cell.repeat);
    if (!other) continue;
    values.push(pick(cell) ?? Number.NaN);
    baselines.push(pick(other) ?? Number.NaN);
  }
  return { values, baselines };
}

/** The instructions per request a target adds to a baseline, paired like the ratios. */
export function addedInstructions(own: CellResult[], base: CellResult[]): MeanDifference {
  const ins = paired(own, base, insOf);
  return pairedDifference(ins.values, ins.baselines);
}

/**
 * Throughput ratio (target ÷ baseline), CPU-per-request and instructions-per-request ratios (baseline ÷ target: below
 * 1 costs more, like a throughput below 1), paired (see paired()).
 */
export function ratiosOf(own: CellResult[], base: CellResult[]) {
  const rps = paired(own, base, rpsOf);
  const cpu = paired(own, base, ratioCpuOf);
  const ins = paired(own, base, insOf);
  return {
    rps: pairedInterval(rps.values, rps.baselines),
    cpu: pairedInterval(cpu.baselines, cpu.values),
    ins: pairedInterval(ins.baselines, ins.values),
  };
}

/**
 * A target's ratios to a baseline: directly where they were measured together; in duet, where the target was paired
 * with another baseline, through it (implementation ÷ layer × layer ÷ limit, intervals combined; at most 3 steps).
 */
export function ratiosTo(
  cells: readonly CellResult[],
  scenario: ScenarioName,
  connections: number,
  own: CellResult[],
  baseline: string,
  steps = 3,
): ReturnType<typeof ratiosOf> {
  const base = countedCells(cells, scenario, connections, baseline);
  const direct = ratiosOf(own, base);
  const via = own.find((c) => c.pair && c.pair.with !== baseline)?.pair?.with;
  if (direct.rps.n > 0 || direct.cpu.n > 0 || !via || steps <= 1) return direct;
  const middle = countedCells(cells, scenario, connections, via);
  const first = ratiosOf(own, middle);
  const second = ratiosTo(cells, scenario, connections, middle, baseline, steps - 1);
  return {
    rps: productInterval(first.rps, second.rps),
    cpu: productInterval(first.cpu, second.cpu),
    ins: productInterval(first.ins, second.ins),
  };
}

/** Which ratio to quote for a target against its baseline, and why. */
export function headlineOf(own: CellResult[], base: CellResult[], rps: Interval, cpu: Interval) {
  if (own.some((c) => c.instructions)) {
    return {
      headline: "instructions-per-request" as const,
      reason: "--count instructions: requests/s under valgrind is not the server's throughput",
    };
  }
  if (own.some((c) => c.group) && Number.isFinite(cpu.value)) {
    return {
      headline: "cpu-per-request" as const,
      reason: "duet: requests per CPU-second of each side's control group, measured at the same time",
    };
  }
  const saturated = [...own, ...base].some((c) => c.loadGenerator?.saturated);
  if (saturated && Number.isFinite(cpu.value)) {
    return {
      headline: "cpu-per-request" as const,
      reason: `the load generator used ≥ ${Math.round(LOADGEN_SATURATION * 100)}% of its core: requests/s is its limit`,
    };
  }
  if (!Number.isFinite(rps.value) && Number.isFinite(cpu.value)) {
    return { headline: "cpu-per-request" as const, reason: "no throughput ratio" };
  }
  return {
    headline: "throughput" as const,
    reason: saturated
      ? "load generator saturated, but no CPU figures (remote server)"
      : "load generator below saturation",
  };
}
