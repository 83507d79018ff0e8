// Latency against offered load (--rate list or ramp): at each rate in turn, one fixed-rate cell per target (the
// targets interleaved, their order rotating per step), latency counted from each request's scheduled send time.
import type { CellResult } from "../results/schema.ts";
import { measureCell } from "./cell.ts";
import { finishState, rotated, type ScenarioPlan, startState } from "./repeats.ts";
import type { LiveTarget, ScenarioRunContext } from "./types.ts";

/** A step keeps up when the server answered at least this share of the rate offered. */
export const KEEPS_UP = 0.95;

/**
 * The rate a fixed-rate cell was answered at: responses over the run less one typical response time (the last answer
 * takes that long even when the server keeps up: on a short run, responses ÷ wall time would call it slow).
 */
export function achievedRate(cell: CellResult): number {
  const o = cell.outcome;
  if (!o?.fixedRate || o.completed === 0) return o?.requestsPerSecond ?? 0;
  const window = o.fixedRate.scheduled / o.fixedRate.target;
  const p50 = Number.isFinite(o.latency.p50) ? o.latency.p50 / 1000 : 0;
  return o.completed / Math.max(window, o.durationS - p50);
}

/** Whether a fixed-rate cell counts as a point of the curve: no failure, and the achieved rate kept up. */
export function keptUp(cell: CellResult): boolean {
  const offered = cell.rate ?? cell.outcome?.fixedRate?.target;
  return !cell.failure && !!offered && achievedRate(cell) >= KEEPS_UP * offered;
}

export async function runSweep(
  plan: ScenarioPlan,
  runnable: LiveTarget[],
  connections: number,
  rates: number[],
  ctx: ScenarioRunContext,
) {
  // Each step measures the server the last one left: a fresh process per cell would find it parked.
  if (ctx.restart) throw new Error("a rate list runs one process per server (--restart run), not one per cell");
  const cells: CellResult[] = [];
  for (const [step, rate] of rates.entries()) {
    for (const [index, target] of rotated(runnable, step + 1).entries()) {
      const state = startState(plan, target.name, connections, 1, ctx);
      state.offeredRate = rate;
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
  const lag = keptUp(cell) ? "" : `, fell behind: ${Math.round(achievedRate(cell))} req/s answered`;
  return `${cell.target} p50 ${o?.latency.p50.toFixed(1)} ms, p99 ${o?.latency.p99.toFixed(1)} ms${lag}`;
}
