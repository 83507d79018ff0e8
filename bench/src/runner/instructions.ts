// --count instructions: one cell on a fresh server process under callgrind (runner/callgrind.ts). The warm-up's
// requests run uninstrumented; then each round zeroes the counters, sends exactly its requests and dumps them. The
// cell's figure is its rounds' mean instructions per request; the intervals come from the processes (the repeats).
import type { InstructionPlan } from "../options/types.ts";
import type { CellResult } from "../results/schema.ts";
import { scenarios } from "../scenarios/catalog.ts";
import { InstructionCounter } from "./callgrind.ts";
import { type CellSpec, type CellState, judge, loadConfig, newCell, oneLine, serverGone } from "./cell.ts";
import { restock } from "./database.ts";
import type { ScenarioRunContext } from "./types.ts";

/** Runs one counted cell; never throws (what went wrong is the cell's failure). */
export async function countInstructions(
  spec: CellSpec,
  ctx: ScenarioRunContext,
  state: CellState,
): Promise<CellResult> {
  const started = performance.now();
  const cell = newCell(spec);
  const pid = spec.target.process?.pid;
  const gone = serverGone(spec.target, cell);
  if (gone || !pid || !ctx.callgrindDir) {
    cell.failure = gone ?? "not a server the bench started under callgrind";
    return cell;
  }
  const counter = new InstructionCounter(pid, ctx.callgrindDir, new URL(spec.target.url).hostname);
  const show = (phase: string) => {
    state.phase = phase;
    ctx.io.progress.update(state);
  };
  try {
    if (scenarios[spec.scenario].writes && spec.target.databaseUrl) {
      await restock(spec.target.databaseUrl, ctx.pools.orderProductIds);
    }
    await countedRounds(spec, ctx, cell, counter, show);
  } catch (error) {
    cell.failure = serverGone(spec.target, cell) ?? oneLine((error as Error).message);
  } finally {
    cell.wallS = (performance.now() - started) / 1000;
  }
  return cell;
}

/** The warm-up, then the rounds, each zeroed, sent and dumped; sets the cell's outcome, failure or instructions. */
async function countedRounds(
  spec: CellSpec,
  ctx: ScenarioRunContext,
  cell: CellResult,
  counter: InstructionCounter,
  show: (phase: string) => void,
) {
  const plan = ctx.options.instructions as InstructionPlan;
  const base = { ...loadConfig(spec, ctx), warmupS: 0 };
  // Every run is judged like a measured cell's: an unexpected status or a socket error fails the cell.
  const send = async (requests: number) => {
    const { outcome } = await ctx.loadGenerator.run({ ...base, requests });
    cell.outcome = outcome;
    judge(cell, 0, ctx.options.smoke);
    return outcome.completed;
  };
  show(`warming up (${plan.warmupRequests} requests, not counted)`);
  await send(plan.warmupRequests);
  if (cell.failure) return;
  await counter.instrument();
  const rounds: number[] = [];
  for (let round = 1; round <= plan.rounds; round++) {
    show(`counting, round ${round}/${plan.rounds} (${plan.requests} requests)`);
    await counter.zero();
    const completed = await send(plan.requests);
    const instructions = await counter.dump();
    if (cell.failure) return;
    rounds.push(instructions / completed);
  }
  const perRequest = rounds.reduce((a, b) => a + b, 0) / rounds.length;
  cell.instructions = { perRequest, rounds, requests: plan.requests, warmupRequests: plan.warmupRequests };
}
