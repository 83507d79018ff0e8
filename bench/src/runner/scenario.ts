// One scenario on every target: verify each (a target that fails is reported and never measured), then, for
// each connection count, measure in the run's mode: repeated max-throughput or fixed-rate cells until precise
// (repeats.ts), or latency against a list of offered rates (sweep.ts); with --slo, after the throughput cells,
// each target's capacity at the latency bound (capacity.ts).
import type { CellResult, VerificationRecord } from "../results.ts";
import { connectionsFor, type ScenarioName, scenarios } from "../scenarios.ts";
import { type CapacityResult, PLANNED_PROBES, runCapacity } from "./capacity.ts";
import { roundSize, runRepeats, type ScenarioPlan } from "./repeats.ts";
import { RESTART_OVERHEAD_S } from "./restart.ts";
import { settleTargets } from "./settle.ts";
import { runSweep } from "./sweep.ts";
import type { LiveTarget, ScenarioRunContext } from "./types.ts";
import { verifyTargets } from "./verification.ts";

/** Seconds a cell costs beyond its warm-up and measured run (process start, stock reset, settling). */
export const CELL_OVERHEAD_S = 0.7;

export interface ScenarioOutcome {
  verification: VerificationRecord[];
  /** The measured cells of the default mode (max throughput, or one fixed --rate). */
  cells: CellResult[];
  /** --rate list or ramp: one fixed-rate cell per target and rate. */
  curve: CellResult[];
  /** --slo: each target's capacity, and the cells of its probes. */
  capacity: CapacityResult[];
  probes: CellResult[];
}

type ModeOptions = ScenarioRunContext["options"];

/** Cells planned per target and connection count (the --slo search is planned at its usual length). */
export function plannedCellsPerTarget(options: ModeOptions): number {
  if (options.rates) return options.rates.length;
  if (options.slo) return options.repeats + PLANNED_PROBES + 1;
  return options.repeats;
}

/**
 * A smoke cell of a scrypt route: time for a few answers at four connections (in half a second most cells of a
 * smoke run here saw none: the first answers come after the first hashes queued behind each other).
 */
const SMOKE_SCRYPT_S = 1;

/**
 * The measured seconds of a scenario's cells: --duration, or the scenario's floor where it needs longer runs to
 * count enough answers to compare (the scrypt routes). A smoke run compares nothing: its floor only lets a scrypt
 * route answer at all.
 */
export function measuredSeconds(name: ScenarioName, options: Pick<ModeOptions, "durationS" | "smoke">): number {
  const floor = scenarios[name].minDurationS;
  if (floor === undefined) return options.durationS;
  return Math.max(options.durationS, options.smoke ? SMOKE_SCRYPT_S : floor);
}

/**
 * The measured seconds of a scenario's cells, and a cell's planned cost. With --restart cell a cell's server is new,
 * so its warm-up is the settling (at least --settle seconds) and the restart adds to its cost.
 */
export function planScenario(name: ScenarioName, options: ModeOptions): ScenarioPlan {
  const durationS = measuredSeconds(name, options);
  const fresh = options.restart === "cell";
  const warmupS = fresh ? Math.max(options.warmupS, options.settleS ?? 0) : options.warmupS;
  const overhead = CELL_OVERHEAD_S + (fresh ? RESTART_OVERHEAD_S : 0);
  return { name, warmupS, durationS, cellSeconds: warmupS + durationS + overhead };
}

export async function runScenario(
  name: ScenarioName,
  targets: LiveTarget[],
  ctx: ScenarioRunContext,
): Promise<ScenarioOutcome> {
  const { options } = ctx;
  const plan = planScenario(name, options);
  const { verification, runnable } = await verifyTargets(name, targets, ctx);
  const connectionCounts = connectionsFor(scenarios[name], options.connections);
  const skipped = Math.max(0, roundSize(targets, ctx) - roundSize(runnable, ctx));
  ctx.counter.cell += skipped * connectionCounts.length * plannedCellsPerTarget(options);
  const outcome: ScenarioOutcome = { verification, cells: [], curve: [], capacity: [], probes: [] };
  // Settled once, at the first connection count: later ones find the servers warm. With --restart cell every cell's
  // warm-up settles its own new server instead.
  const settleS = ctx.restart ? 0 : (options.settleS ?? 0);
  await settleTargets(plan, runnable, connectionCounts[0] ?? 100, settleS, ctx);
  for (const connections of connectionCounts) {
    const label = `${name}${connectionCounts.length > 1 ? ` @${connections}` : ""}`;
    if (options.rates) outcome.curve.push(...(await runSweep(plan, runnable, connections, options.rates, ctx)));
    else outcome.cells.push(...(await runRepeats(plan, runnable, connections, label, ctx)));
    if (options.slo) {
      // Beside the throughput just measured: the search starts from half of each target's maximum.
      const { cells, results } = await runCapacity(plan, runnable, connections, options.slo, ctx, outcome.cells);
      outcome.probes.push(...cells);
      outcome.capacity.push(...results);
    }
  }
  return outcome;
}
