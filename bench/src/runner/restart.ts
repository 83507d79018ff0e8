// --restart cell: each measured cell on a new process of its server (intervals then carry how processes differ:
// bench/results/precision-study/README.md), parked after it so that no idle server's GC lands in another's cell.
import type { CellResult } from "../results/schema.ts";
import { type CellSpec, type CellState, newCell } from "./cell.ts";
import type { LiveTarget, ScenarioRunContext } from "./types.ts";

/**
 * Starts the cell's target anew when the run restarts per cell: the new process's start-up time, or the cell, failed,
 * when it does not start; undefined when the run keeps one process per server.
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
    // No pid: the process that was asked for never started.
    const { pid: _none, ...cell } = newCell(spec);
    return { failed: { ...cell, failure: `the server did not restart: ${(error as Error).message.split("\n")[0]}` } };
  }
}

/** Stops the target's fresh process after its cell (and its re-runs), when the run restarts per cell. */
export async function parkProcess(target: LiveTarget, ctx: ScenarioRunContext): Promise<void> {
  await ctx.restart?.park(target);
}
