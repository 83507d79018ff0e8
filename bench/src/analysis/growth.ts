// Growth: how each scenario's cost changes with the data, in a run at several scales (--scale 1,10,100). Per scenario,
// connection count and target: its throughput and PostgreSQL time at each scale, and its throughput at each scale over
// the smallest scale's with a 95% interval, held against issue #35's bar (keep at least 80% of it).
import type { CellResult, Results, SummaryRow } from "../results/schema.ts";
import { scenarios } from "../scenarios/catalog.ts";
import { type Interval, pairedInterval, productInterval, type Spread } from "../stats.ts";
import { countedCells, fig, rpsOf } from "./ratios.ts";

/** The share of its smallest-scale throughput a target must keep where a request's cost should not grow (#35). */
export const KEPT_SHARE = 0.8;

/**
 * kept: the whole interval at or above the bar; lost: all of it below; cannot tell: it straddles the bar (or has no
 * interval); failed: the target failed at one of the two scales; not judged: a scenario whose cost grows by design.
 */
export type Kept = "kept" | "lost" | "cannot tell" | "failed" | "not judged";

/** One target at one scale. */
export interface GrowthPoint {
  scale: number;
  orders: number;
  /** Absent: not measured at this scale. */
  row?: SummaryRow;
}

/** Throughput at a larger scale over the smallest scale's, and what it says against the bar. */
export interface GrowthStep {
  scale: number;
  ratio: Interval;
  kept: Kept;
}

/** One scenario × connection count × target across the run's scales. */
export interface GrowthLine {
  scenario: SummaryRow["scenario"];
  connections: number;
  target: string;
  role: SummaryRow["role"];
  points: GrowthPoint[];
  steps: GrowthStep[];
}

/** A run measured at more than one scale. */
export const isGrowthRun = (r: Pick<Results, "scales">) => (r.scales?.length ?? 0) > 1;

/** Every line of a growth run, in the run's scenario order, targets as its smallest scale listed them (no A/A twins). */
export function growthLines(r: Results): GrowthLine[] {
  const scales = r.scales ?? [];
  const smallest = scales[0]?.scale;
  if (!isGrowthRun(r) || smallest === undefined) return [];
  const twins = new Set(r.targets.filter((t) => t.twinOf).map((t) => t.name));
  const keys = r.summary.filter((s) => s.scale === smallest && !twins.has(s.target));
  return keys.map((key) => {
    const rowAt = (scale: number) =>
      r.summary.find(
        (s) =>
          s.scale === scale &&
          s.scenario === key.scenario &&
          s.connections === key.connections &&
          s.target === key.target,
      );
    const points = scales.map(({ scale, rows }) => {
      const row = rowAt(scale);
      return { scale, orders: rows.orders, ...(row ? { row } : {}) };
    });
    const judged = !scenarios[key.scenario].growsWithData;
    const steps = points.slice(1).map((point) => {
      const ratio = throughputRatio(r.cells, key, smallest, point.scale, r.scaleOrder === "interleaved");
      const failed = key.status !== "ok" || point.row?.status !== "ok";
      return { scale: point.scale, ratio, kept: failed ? ("failed" as const) : keptOf(ratio, judged) };
    });
    return { scenario: key.scenario, connections: key.connections, target: key.target, role: key.role, points, steps };
  });
}

/**
 * Throughput at scale `to` ÷ at scale `from`, one target's. `paired`: the run interleaved its scales round by round
 * (runner/interleave.ts), so each round's cells at the two scales are a pair, combined as a target and its baseline
 * are. Otherwise the scales ran one after the other and their repeats are not pairs: each scale's repeats give a
 * geometric mean with its interval, and the two combine as independent ratios do (stats.ts's productInterval).
 */
export function throughputRatio(
  cells: readonly CellResult[],
  where: Pick<SummaryRow, "scenario" | "connections" | "target">,
  from: number,
  to: number,
  paired: boolean,
): Interval {
  const at = (scale: number) =>
    countedCells(
      cells.filter((c) => c.scale === scale && !c.failure),
      where.scenario,
      where.connections,
      where.target,
    );
  if (paired) return pairedByRound(at(from), at(to));
  return productInterval(throughputLevel(at(to)), reciprocal(throughputLevel(at(from))));
}

/** `to`'s requests/s over `from`'s, round by round (the rounds both scales measured). */
function pairedByRound(from: CellResult[], to: CellResult[]): Interval {
  const rounds = to.filter((c) => from.some((f) => f.repeat === c.repeat)).map((c) => c.repeat);
  const inRound = (cells: CellResult[]) =>
    fig(
      rounds.map((r) => cells.find((c) => c.repeat === r) as CellResult),
      rpsOf,
    );
  return pairedInterval(inRound(to), inRound(from));
}

/** A target's throughput over its repeats: their geometric mean with its 95% interval (each repeat over 1). */
function throughputLevel(cells: CellResult[]): Interval {
  const rps = fig(cells, rpsOf);
  return pairedInterval(
    rps,
    rps.map(() => 1),
  );
}

/** 1 ÷ an interval: the same relative half-width on the log scale. */
const reciprocal = (i: Interval): Interval => ({ ...i, value: 1 / i.value, low: 1 / i.high, high: 1 / i.low });

/** What a ratio says against the bar; `judged` false for a scenario whose cost grows with the data by design. */
export function keptOf(ratio: Interval, judged: boolean): Kept {
  if (!judged) return "not judged";
  if (!Number.isFinite(ratio.low) || !Number.isFinite(ratio.high)) return "cannot tell";
  if (ratio.low >= KEPT_SHARE) return "kept";
  if (ratio.high < KEPT_SHARE) return "lost";
  return "cannot tell";
}

/** A point's figure, none where the target was not measured at that scale or failed there. */
export const pointFigure = (point: GrowthPoint, pick: (row: SummaryRow) => Spread): Spread | undefined =>
  point.row?.status === "ok" ? pick(point.row) : undefined;
