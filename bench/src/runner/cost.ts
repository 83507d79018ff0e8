// What a run costs in seconds: per scenario its cells, what each cell takes and the servers' settling. The estimate
// printed before a run and the budget that decides extra repeats both count with this one model.
import { measurementsPerRound, targetsOfScenario } from "../baselines.ts";
import type { BenchOptions, InstructionPlan } from "../options/types.ts";
import { connectionsFor, type ScenarioName, scenarios } from "../scenarios/catalog.ts";
import type { ScenarioKind } from "../scenarios/types.ts";
import { PLANNED_PROBES } from "./capacity.ts";
import type { RunOptions, ScenarioPlan } from "./types.ts";

/** What a run costs besides its cells: provisioning and seeding, and per server a build, start and verification. */
const FIXED_SECONDS = 20;
const PER_TARGET_SECONDS = 6;
/** Per cell beyond warm-up and measurement (drains, restock, samplers, connecting): measured 0.1–0.4 s on framework
 * cells and 0.6–1 s on database cells; 0.8 s, as most of a default run's cells are database cells. */
export const CELL_OVERHEAD_S = 0.8;
/** A restart beyond its settling warm-up: the precision study's sequential-fresh-quiet, 8.8 s a cell against 8.1 s. */
export const RESTART_OVERHEAD_S = 0.7;
/** A smoke cell of a scrypt route: time for a few answers at four connections (in half a second most saw none). */
const SMOKE_SCRYPT_S = 1;

/**
 * --count instructions, what a cell took on this VM (bench/results/2026-11-29-instructions): a start under valgrind
 * (5 s raw node:http, 14 s NestJS), then requests at about 1,000/s uninstrumented and 500/s counted on the framework
 * scenarios (≈ 40 s a cell at the default plan), 400/s and 90/s on the database ones (≈ 150 s: a request there costs
 * 0.5–1.1 million instructions, several times a hello's).
 */
const CALLGRIND_START_S = 10;
const REQUESTS_PER_S = {
  framework: { uncounted: 1_000, counted: 500 },
  database: { uncounted: 400, counted: 90 },
} as const;

/** A counted cell's planned seconds: its fresh start, its warm-up and its rounds. */
export function countedCellSeconds(plan: InstructionPlan, kind: ScenarioKind): number {
  const rate = REQUESTS_PER_S[kind];
  return CALLGRIND_START_S + plan.warmupRequests / rate.uncounted + (plan.rounds * plan.requests) / rate.counted;
}

/** Cells planned per target and connection count (the --slo search is planned at its usual length). */
export function plannedCellsPerTarget(options: RunOptions): number {
  if (options.rates) return options.rates.length;
  if (options.slo) return options.repeats + PLANNED_PROBES + 1;
  return options.repeats;
}

/** A scenario's measured seconds: --duration, or its floor where it needs longer to count enough answers (scrypt). */
export function measuredSeconds(name: ScenarioName, options: Pick<RunOptions, "durationS" | "smoke">): number {
  const floor = scenarios[name].minDurationS;
  if (floor === undefined) return options.durationS;
  return Math.max(options.durationS, options.smoke ? SMOKE_SCRYPT_S : floor);
}

/** A cell's planned seconds. With a fresh process per cell its warm-up settles it (at least --settle), plus the restart. */
export function cellSeconds(warmupS: number, durationS: number, fresh?: { settleS: number; restartS: number }) {
  const warm = fresh ? Math.max(warmupS, fresh.settleS) : warmupS;
  return warm + durationS + CELL_OVERHEAD_S + (fresh ? fresh.restartS : 0);
}

/** A scenario's cells: their warm-up, measured seconds and planned cost (runner/repeats.ts's plan). */
export function planScenario(name: ScenarioName, options: RunOptions): ScenarioPlan {
  if (options.instructions) {
    return {
      name,
      warmupS: 0,
      durationS: 0,
      cellSeconds: countedCellSeconds(options.instructions, scenarios[name].kind),
    };
  }
  const durationS = measuredSeconds(name, options);
  const fresh =
    options.restart === "cell" ? { settleS: options.settleS ?? 0, restartS: RESTART_OVERHEAD_S } : undefined;
  const warmupS = fresh ? Math.max(options.warmupS, fresh.settleS) : options.warmupS;
  return { name, warmupS, durationS, cellSeconds: cellSeconds(options.warmupS, durationS, fresh) };
}

/** Every server settles once per scenario before its first round, two at a time in duet; none with --restart cell. */
export function settleSeconds(options: BenchOptions, name: ScenarioName, restartPerCell: boolean): number {
  if (restartPerCell) return 0;
  return (targetsOfScenario(options, name).length * options.settleS) / (options.pairing === "duet" ? 2 : 1);
}

/** A scenario's planned cells in the whole run (at its least repeats) and their seconds with its settling. */
export function scenarioCost(options: BenchOptions, name: ScenarioName, restartPerCell: boolean) {
  const cells =
    measurementsPerRound(options, name) *
    connectionsFor(scenarios[name], options.connections).length *
    plannedCellsPerTarget(options);
  const seconds = cells * planScenario(name, options).cellSeconds + settleSeconds(options, name, restartPerCell);
  return { cells, seconds };
}

/** One scenario as the estimate counts it; `settleS` is --settle per cell when `restartS` is there, else its settling. */
export interface EstimatePlan {
  targets: number;
  /** A cell's seconds where they are not warm-up + duration (--count instructions). */
  cellS?: number;
  connections: number;
  durationS?: number;
  settleS?: number;
  restartS?: number;
}

/** How long a run takes: the seconds at its least repeats, and at its most (max repeats, or the budget). */
export function estimateSeconds(
  options: Pick<BenchOptions, "warmupS" | "durationS" | "repeats" | "maxRepeats" | "budgetMinutes">,
  plan: EstimatePlan[],
  targets: number,
): { min: number; max: number } {
  const perCell = (s: EstimatePlan) =>
    s.cellS ??
    cellSeconds(
      options.warmupS,
      s.durationS ?? options.durationS,
      s.restartS === undefined ? undefined : { settleS: s.settleS ?? 0, restartS: s.restartS },
    );
  const perRepeat = plan.reduce((n, s) => n + s.targets * s.connections * perCell(s), 0);
  const settling = plan.reduce((n, s) => n + (s.restartS === undefined ? (s.settleS ?? 0) : 0), 0);
  const fixed = FIXED_SECONDS + PER_TARGET_SECONDS * targets + settling;
  const min = fixed + perRepeat * options.repeats;
  const most = fixed + perRepeat * options.maxRepeats;
  const budget = options.budgetMinutes === undefined ? Number.POSITIVE_INFINITY : options.budgetMinutes * 60;
  return { min, max: Math.max(min, Math.min(most, budget)) };
}

/**
 * Seeding a growth run's template per unit of scale: the aim of the bench's COPY seeding (#35: scale 100 in well under
 * a minute). A one-scale run's seeding is in FIXED_SECONDS.
 */
const SEED_SECONDS_PER_SCALE = 0.5;

/** A run's estimate from its options; a growth run measures everything once per scale, after seeding each. */
export function estimateRun(bench: BenchOptions): { min: number; max: number } {
  if (bench.scales.length === 1) return estimateOneScale(bench);
  const one = estimateOneScale({ ...bench, budgetMinutes: undefined });
  const seeding = bench.scales.reduce((n, scale) => n + scale * SEED_SECONDS_PER_SCALE, 0);
  const min = one.min * bench.scales.length + seeding;
  const most = one.max * bench.scales.length + seeding;
  const budget = bench.budgetMinutes === undefined ? Number.POSITIVE_INFINITY : bench.budgetMinutes * 60;
  return { min, max: Math.max(min, Math.min(most, budget)) };
}

/** One scale's estimate: every scenario's cells, settling and restarts, every server's start. */
function estimateOneScale(bench: BenchOptions): { min: number; max: number } {
  const fresh = bench.restart === "cell";
  const plan = bench.scenarios.map((s) => ({
    targets: measurementsPerRound(bench, s),
    ...(fresh ? { settleS: bench.settleS, restartS: RESTART_OVERHEAD_S } : { settleS: settleSeconds(bench, s, false) }),
    connections: connectionsFor(scenarios[s], bench.connections).length,
    durationS: measuredSeconds(s, bench),
    ...(bench.instructions ? { cellS: countedCellSeconds(bench.instructions, scenarios[s].kind) } : {}),
  }));
  const everyTarget = new Set(bench.scenarios.flatMap((s) => targetsOfScenario(bench, s))).size;
  // A ramp runs one cell per rate instead of the repeats; --slo adds its probes (about a dozen) to them.
  const perTarget = plannedCellsPerTarget(bench);
  const cells = bench.rates
    ? { repeats: perTarget, maxRepeats: perTarget }
    : { repeats: perTarget, maxRepeats: bench.maxRepeats + perTarget - bench.repeats };
  return estimateSeconds({ ...bench, ...cells }, plan, everyTarget);
}
