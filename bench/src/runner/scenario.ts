// One scenario on every target: verify each (a target that fails is reported and never measured), then, for
// each connection count, measure in the run's mode: repeated max-throughput or fixed-rate cells until precise
// (repeats.ts), or latency against a list of offered rates (sweep.ts); with --slo, after the throughput cells,
// each target's capacity at the latency bound (capacity.ts).
import type { CellResult, VerificationRecord } from "../results/schema.ts";
import { connectionsFor, type ScenarioName, scenarios } from "../scenarios/catalog.ts";
import { type CapacityResult, runCapacity } from "./capacity.ts";
import { plannedCellsPerTarget, planScenario } from "./cost.ts";
import { roundSize, runRepeats } from "./repeats.ts";
import { settleTargets } from "./settle.ts";
import { runSweep } from "./sweep.ts";
import type { LiveTarget, ScenarioRunContext } from "./types.ts";
import { verifyTargets } from "./verification.ts";

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
