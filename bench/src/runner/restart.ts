// --restart cell: every measured cell gets a server process of its own, started anew, settled by the cell's warm-up
// (--settle seconds, in place of the scenario's one settling), measured, and stopped ("parked") until the target's
// next cell, so that no idle server lingers on the core beside the one measured (a runtime's background work after
// its load — garbage collection, compiler threads — would otherwise land in the next target's cell, always the same
// one in a rotating order). Why a fresh process: two processes of the same
// server do not run at the same speed — the JIT's decisions, the heap's sizing and the memory layout differ from one
// start to the next and then stay for the process's life — so cells that all measure one process per target repeat
// that process's luck, and their interval says nothing of it. The precision study (bench/results/precision-study/)
// saw it: A/A twins (two processes of one baseline) apart beyond their intervals, and the same ratio moving between
// runs far beyond each run's interval. Repeating at the level where the variation is (the process, as in Kalibera
// and Jones's "Rigorous benchmarking in reasonable time") makes the interval carry it.
import type { CellResult } from "../results.ts";
import type { CellSpec, CellState } from "./cell.ts";
import type { LiveTarget, ScenarioRunContext } from "./types.ts";

/**
 * Seconds a restart costs beyond the settling warm-up: stopping the old process and starting the new one (the
 * precision study's sequential-fresh-quiet: 8.8 s per cell in all against 8.1 s measuring it).
 */
export const RESTART_OVERHEAD_S = 0.7;

/**
 * Starts the cell's target anew when the run restarts per cell: resolves to the new process's start-up time, or to
 * the cell, failed, when the new process does not start (the failure names why); undefined when the run keeps one
 * process per server.
 */
export async function freshProcess(
  spec: CellSpec,
  ctx: ScenarioRunContext,
  state: CellState,
): Promise<{ startupMs: number } | { failed: CellResult } | undefined> {
  if (!ctx.restart) return undefined;
  state.phase = "restarting";
  ctx.io.progress.update(state);
  try {
    return { startupMs: await ctx.restart.fresh(spec.target) };
  } catch (error) {
    return {
      failed: {
        scenario: spec.scenario,
        connections: spec.connections,
        repeat: spec.repeat,
        target: spec.target.name,
        position: spec.position,
        startedAt: new Date().toISOString(),
        failure: `the server did not restart: ${(error as Error).message.split("\n")[0]}`,
      },
    };
  }
}

/** Stops the target's fresh process after its cell (and its re-runs), when the run restarts per cell. */
export async function parkProcess(target: LiveTarget, ctx: ScenarioRunContext): Promise<void> {
  await ctx.restart?.park(target);
}
