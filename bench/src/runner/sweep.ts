// Latency against offered load (--rate list or ramp): at each rate in turn, one fixed-rate cell per target (the
// targets interleaved, their order rotating per step), latency counted from each request's scheduled send time.
import type { CellResult } from "../results.ts";
import { measureCell } from "./cell.ts";
import { finishState, rotated, type ScenarioPlan, startState } from "./repeats.ts";
import type { LiveTarget, ScenarioRunContext } from "./types.ts";

/** A step keeps up when the server answered at least this share of the rate offered. */
export const KEEPS_UP = 0.95;

/** Whether a fixed-rate cell counts as a point of the curve: no failure, and the achieved rate kept up. */
export function keptUp(cell: CellResult): boolean {
  const offered = cell.rate ?? cell.outcome?.fixedRate?.target;
  return !cell.failure && !!offered && (cell.outcome?.requestsPerSecond ?? 0) >= KEEPS_UP * offered;
}

export async function runSweep(
  plan: ScenarioPlan,
  runnable: LiveTarget[],
  connections: number,
  rates: number[],
  ctx: ScenarioRunContext,
) {
  const cells: CellResult[] = [];
  for (const [step, rate] of rates.entries()) {
    for (const [index, target] of rotated(runnable, step + 1).entries()) {
      const state = startState(plan, target.name, connections, 1, ctx);
      state.phase = `${rate} req/s`;
      ctx.io.progress.update(state);
      const spec = {
        scenario: plan.name,
        target,
        connections,
        repeat: 1,
        position: index + 1,
        warmupS: plan.warmupS,
        durationS: plan.durationS,
        rate,
      };
      const cell = await measureCell(spec, ctx, state);
      cells.push(cell);
      finishState(state, cell, plan, ctx);
    }
    ctx.io.log(`${plan.name} @${rate} req/s: ${cells.slice(-runnable.length).map(describePoint).join("; ")}`);
  }
  return cells;
}

function describePoint(cell: CellResult): string {
  if (cell.failure) return `${cell.target} FAILED (${cell.failure})`;
  const o = cell.outcome;
  const lag = keptUp(cell) ? "" : `, fell behind: ${Math.round(o?.requestsPerSecond ?? 0)} req/s answered`;
  return `${cell.target} p50 ${o?.latency.p50.toFixed(1)} ms, p99 ${o?.latency.p99.toFixed(1)} ms${lag}`;
}
