// The measuring loop of the default mode: rounds of one cell per verified target, in an order that rotates per
// round, until every headline ratio's 95% interval is within ±precision (after at least `repeats` rounds, at
// most `maxRepeats`, and while the run's budget allows). A cell that ran while other work used the machine is
// run again (at most --reruns times) and the disturbed run is kept, marked as discarded. A target whose cell failed
// is not measured again in that scenario (its row is failed).
import { countedCells, headlineOf, ratioIn, ratiosTo } from "../analysis/ratios.ts";
import type { CellResult } from "../results/schema.ts";
import type { ScenarioName } from "../scenarios/catalog.ts";
import { type CellSpec, type CellState, measureCell } from "./cell.ts";
import { measurePair } from "./duet.ts";
import { countInstructions } from "./instructions.ts";
import { freshProcess, parkProcess } from "./restart.ts";
import { recordCellTime, secondsLeft, secondsPerCell } from "./time-left.ts";
import type { LiveTarget, ScenarioPlan, ScenarioRunContext } from "./types.ts";

export type { ScenarioPlan } from "./types.ts";

/**
 * The widest 95% half-width among the headline ratios of a scenario's targets to its baseline (NaN when none
 * can be computed yet), and which target it belongs to.
 */
export function widestInterval(
  cells: readonly CellResult[],
  name: ScenarioName,
  connections: number,
  targets: readonly string[],
  baseline: string,
): { halfWidth: number; target?: string } {
  const base = countedCells(cells, name, connections, baseline).filter((c) => !c.failure);
  let widest: { halfWidth: number; target?: string } = { halfWidth: Number.NaN };
  for (const target of targets) {
    if (target === baseline) continue;
    const own = countedCells(cells, name, connections, target);
    if (own.some((c) => c.failure)) continue;
    const { rps, cpu, ins } = ratiosTo(cells, name, connections, own, baseline);
    const chosen = ratioIn({ rpsRatio: rps, cpuRatio: cpu, insRatio: ins }, headlineOf(own, base, rps, cpu).headline);
    if (!(chosen.halfWidth <= widest.halfWidth) && Number.isFinite(chosen.halfWidth)) {
      widest = { halfWidth: chosen.halfWidth, target };
    }
  }
  return widest;
}

/** The targets in this round's order: every target once, rotating so none is always first or last. */
export const rotated = <T>(items: readonly T[], round: number): T[] => {
  const shift = (round - 1) % Math.max(1, items.length);
  return [...items.slice(shift), ...items.slice(0, shift)];
};

/** The progress line's state as a cell starts. */
export function startState(
  plan: ScenarioPlan,
  target: string,
  connections: number,
  repeat: number,
  ctx: ScenarioRunContext,
): CellState {
  const { counter } = ctx;
  counter.cell++;
  return {
    cell: counter.cell,
    cells: counter.total,
    target,
    scenario: ctx.scale === undefined ? plan.name : `${plan.name} (scale ${ctx.scale})`,
    connections,
    repeat,
    repeats: Math.max(ctx.options.repeats, repeat),
    phase: "starting",
    secondsLeft: secondsLeft(counter, plan.cellSeconds, true),
  };
}

/** Shows a finished cell on the progress line and counts its time. */
export function finishState(state: CellState, cell: CellResult, plan: ScenarioPlan, ctx: ScenarioRunContext) {
  const figure = cell.instructions
    ? `${Math.round(cell.instructions.perRequest).toLocaleString("en-US")} instructions/request`
    : `${Math.round(cell.outcome?.requestsPerSecond ?? 0)} req/s`;
  state.phase = cell.failure ? `FAILED: ${cell.failure}` : (cell.note ?? figure);
  recordCellTime(ctx.counter, cell.wallS);
  state.secondsLeft = secondsLeft(ctx.counter, plan.cellSeconds, false);
  ctx.io.progress.update(state, true);
}

/** One run of a cell: on a fresh server process with --restart cell (runner/restart.ts). */
async function measureOnce(spec: CellSpec, ctx: ScenarioRunContext, state: CellState): Promise<CellResult> {
  const fresh = await freshProcess(spec, ctx, state);
  if (fresh && "failed" in fresh) return fresh.failed;
  const cell = ctx.options.instructions
    ? await countInstructions(spec, ctx, state)
    : await measureCell(spec, ctx, state);
  if (fresh) cell.startupMs = fresh.startupMs;
  return cell;
}

/** One cell, run again while disturbed; every run is kept (the disturbed ones marked discarded). */
async function measureUndisturbed(spec: CellSpec, ctx: ScenarioRunContext, state: CellState): Promise<CellResult[]> {
  const runs = [await measureOnce(spec, ctx, state)];
  const reruns = ctx.options.reruns;
  for (let rerun = 1; rerun <= reruns; rerun++) {
    const last = runs[runs.length - 1] as CellResult;
    if (!last.disturbed || last.failure) break;
    last.discarded = `disturbed: other processes used ${last.otherCpuCores?.toFixed(2)} cores; run again`;
    ctx.io.log(
      `${spec.scenario} on ${spec.target.name}, repeat ${spec.repeat}: ${last.discarded} (${rerun}/${reruns})`,
    );
    runs.push(await measureOnce(spec, ctx, state));
  }
  await parkProcess(spec.target, ctx);
  return runs;
}

/** The measurements of one round: a cell per target, or in duet a pair per target that has a partner. */
export const roundSize = (runnable: readonly LiveTarget[], ctx: Pick<ScenarioRunContext, "duet">) =>
  ctx.duet ? runnable.filter((t) => t.partner).length : runnable.length;

/**
 * One duet round: every target with a partner measured beside it, the pairs in rotated order; which load
 * generator drives which side alternates from round to round.
 */
async function runDuetRound(
  plan: ScenarioPlan,
  runnable: LiveTarget[],
  connections: number,
  repeat: number,
  ctx: ScenarioRunContext,
) {
  const cells: CellResult[] = [];
  const duet = ctx.duet;
  if (!duet) return cells;
  const pairs = runnable.filter((t) => t.partner);
  for (const [index, target] of rotated(pairs, repeat).entries()) {
    const partner = runnable.find((t) => t.name === target.partner);
    const state = startState(plan, `${target.name} beside ${target.partner}`, connections, repeat, ctx);
    ctx.io.progress.update(state);
    if (!partner) {
      const failure = `its duet partner ${target.partner} could not be measured (failed verification or start)`;
      const cell = { scenario: plan.name, connections, repeat, target: target.name, position: index + 1, failure };
      cells.push(cell);
      finishState(state, cell, plan, ctx);
      continue;
    }
    const sides = repeat % 2 === 1 ? ([partner, target] as const) : ([target, partner] as const);
    const pair = await measurePair(plan, sides, connections, repeat, index + 1, { ...ctx, duet }, state);
    cells.push(...pair);
    finishState(state, pair.find((c) => c.target === target.name) as CellResult, plan, ctx);
  }
  return cells;
}

/** One round: a cell per target, in rotated order (duet: a pair per target, runDuetRound). */
export async function runRound(
  plan: ScenarioPlan,
  runnable: LiveTarget[],
  connections: number,
  repeat: number,
  ctx: ScenarioRunContext,
) {
  if (ctx.duet) return runDuetRound(plan, runnable, connections, repeat, ctx);
  const cells: CellResult[] = [];
  for (const [index, target] of rotated(runnable, repeat).entries()) {
    const state = startState(plan, target.name, connections, repeat, ctx);
    ctx.io.progress.update(state);
    const spec = {
      scenario: plan.name,
      target,
      connections,
      repeat,
      position: index + 1,
      warmupS: plan.warmupS,
      durationS: plan.durationS,
    };
    const runs = await measureUndisturbed(spec, ctx, state);
    cells.push(...runs);
    finishState(state, runs[runs.length - 1] as CellResult, plan, ctx);
  }
  return cells;
}

/** Whether to stop after this round: enough repeats and precise enough, or out of repeats or budget (logged). */
function shouldStop(
  plan: ScenarioPlan,
  cells: CellResult[],
  runnable: LiveTarget[],
  connections: number,
  repeat: number,
  label: string,
  ctx: ScenarioRunContext,
): boolean {
  const { options } = ctx;
  if (repeat < options.repeats) return false;
  if (!ctx.baseline) return true;
  const targets = runnable.map((t) => t.name);
  const widest = widestInterval(cells, plan.name, connections, targets, ctx.baseline);
  const reached = Number.isFinite(widest.halfWidth)
    ? `${widest.halfWidth >= 10 ? ">±999%" : `±${(widest.halfWidth * 100).toFixed(1)}%`} (widest: ${widest.target})`
    : "no interval yet";
  const wanted = `wanted ±${(options.precision * 100).toFixed(1)}%`;
  // No interval yet (one pair) is not precise; none after two rounds means no ratio can be had (a baseline
  // failed): more rounds would not help.
  const precise = Number.isFinite(widest.halfWidth) ? widest.halfWidth <= options.precision : repeat >= 2;
  if (precise || repeat >= options.maxRepeats) {
    ctx.io.log(
      `${label}: ${repeat} repeat(s), precision ${reached}${precise ? "" : ` — ${wanted}, stopped at --max-repeats`}`,
    );
    return true;
  }
  if (ctx.canExtend && !ctx.canExtend(roundSize(runnable, ctx) * secondsPerCell(ctx.counter, plan.cellSeconds))) {
    ctx.io.log(`${plan.name}: ${repeat} repeat(s), precision ${reached} — ${wanted}, no time left in the budget`);
    return true;
  }
  return false;
}

/** Rounds at one connection count until precise enough (see the file's comment). */
export async function runRepeats(
  plan: ScenarioPlan,
  runnable: LiveTarget[],
  connections: number,
  label: string,
  ctx: ScenarioRunContext,
) {
  const cells: CellResult[] = [];
  const dropped = new Set<string>();
  for (let repeat = 1; ; repeat++) {
    const measured = runnable.filter((t) => !dropped.has(t.name));
    if (measured.length === 0) {
      ctx.io.log(`${label}: every target failed a cell; no more rounds`);
      return cells;
    }
    if (repeat > ctx.options.repeats) ctx.counter.total += roundSize(measured, ctx);
    const round = await runRound(plan, measured, connections, repeat, ctx);
    cells.push(...round);
    if (!ctx.duet) dropFailed(round, dropped, repeat, label, ctx);
    const left = measured.filter((t) => !dropped.has(t.name));
    if (shouldStop(plan, cells, left, connections, repeat, label, ctx)) return cells;
  }
}

/**
 * A target whose cell failed is not measured again at this connection count: its row is failed whatever its later
 * cells give (analysis/summary.ts), and a timed-out cell can take minutes (a deep page at scale 100). Its planned
 * cells come off the progress counter. In duet the pairs stay whole (a partner's failure is its pair's).
 */
export function dropFailed(
  round: readonly CellResult[],
  dropped: Set<string>,
  repeat: number,
  label: string,
  ctx: Pick<ScenarioRunContext, "counter"> & { options: { repeats: number }; io: { log(message: string): void } },
) {
  for (const cell of round) {
    if (!cell.failure || dropped.has(cell.target)) continue;
    dropped.add(cell.target);
    ctx.counter.total -= Math.max(0, ctx.options.repeats - repeat);
    ctx.io.log(`${label}: ${cell.target} failed a cell (${cell.failure}): not measured again, its row is failed`);
  }
}
