// A growth run with a fresh process per cell measures its scales round by round: round r of a scenario at every scale
// (in an order that rotates per round), then round r + 1. A drift of the machine over the run then moves both sides
// of a scale ratio alike, and analysis/growth.ts pairs each target's cells by round as it pairs a target with its
// baseline. Measured one after the other, the scales' halves of the run had drifted apart by up to 27% (bench/README,
// "Growth").

import { throughputRatio } from "../analysis/growth.ts";
import { baselineFor, targetsOfScenario } from "../baselines.ts";
import type { BenchOptions } from "../options/types.ts";
import type { CellResult, VerificationRecord } from "../results/schema.ts";
import { connectionsFor, type ScenarioName, scenarios } from "../scenarios/catalog.ts";
import { plannedCellsPerTarget, planScenario, scenarioCost } from "./cost.ts";
import type { DataSource } from "./data.ts";
import { liveServers } from "./lineup.ts";
import { type MeasureContext, type Measured, scenarioContext, scenarioFits } from "./measure.ts";
import { dropFailed, rotated, roundSize, runRound, widestInterval } from "./repeats.ts";
import { type Server, useScale } from "./servers.ts";
import { secondsPerCell } from "./time-left.ts";
import type { CellCounter, LiveTarget, ScenarioPlan, ScenarioRunContext } from "./types.ts";
import { verifyTargets } from "./verification.ts";

/** Whether a run measures its scales interleaved: several scales, each cell on a fresh process of the bench's own. */
export const interleavesScales = (options: Pick<BenchOptions, "scales" | "restart">, local: boolean) =>
  local && options.scales.length > 1 && options.restart === "cell";

/** One scale of the run as its scenarios see it: its data, and the context a scenario runs in there. */
interface ScaleSide {
  index: number;
  scale: number;
  ctx: ScenarioRunContext;
  runnable: LiveTarget[];
  dropped: Set<string>;
}

/** Every scenario at every scale, round by round; what was measured, per scale in the run's scale order. */
export async function measureInterleaved(
  options: BenchOptions,
  selected: ScenarioName[],
  servers: Server[],
  datas: readonly DataSource[],
  shared: Omit<MeasureContext, "data">,
): Promise<Measured[]> {
  const measured: Measured[] = datas.map(() => ({ cells: [], verification: [], curve: [], capacity: [], probes: [] }));
  const cost = (s: ScenarioName) => {
    const one = scenarioCost(options, s, true);
    return { cells: one.cells * datas.length, seconds: one.seconds * datas.length };
  };
  const deadline = options.budgetMinutes === undefined ? undefined : shared.started / 1000 + options.budgetMinutes * 60;
  const counter: CellCounter = { cell: 0, total: selected.reduce((n, s) => n + cost(s).cells, 0) };
  for (const [index, name] of selected.entries()) {
    const fits = scenarioFits(deadline, selected, index, cost) ?? (() => true);
    const sides = await verifyAtEveryScale(options, name, servers, datas, shared, counter, measured);
    for (const connections of connectionsFor(scenarios[name], options.connections)) {
      const cells = await interleavedRounds(planScenario(name, options), servers, sides, connections, fits);
      for (const side of sides)
        (measured[side.index] as Measured).cells.push(...cells.filter((c) => c.scale === side.scale));
    }
  }
  return measured;
}

/** Each scale's servers verified on its data: the targets that may be measured there. */
async function verifyAtEveryScale(
  options: BenchOptions,
  name: ScenarioName,
  servers: Server[],
  datas: readonly DataSource[],
  shared: Omit<MeasureContext, "data">,
  counter: CellCounter,
  measured: Measured[],
): Promise<ScaleSide[]> {
  const sides: ScaleSide[] = [];
  for (const [index, data] of datas.entries()) {
    const scale = options.scales[index] as number;
    useScale(servers, index);
    const ctx = { ...scenarioContext(options, name, servers, { ...shared, data }, counter), scale };
    const live = liveServers(servers, targetsOfScenario(options, name), undefined, undefined);
    const { verification, runnable } = await verifyTargets(name, live, ctx);
    (measured[index] as Measured).verification.push(...verification.map((v): VerificationRecord => ({ ...v, scale })));
    const skipped = live.length - runnable.length;
    counter.cell +=
      skipped * connectionsFor(scenarios[name], options.connections).length * plannedCellsPerTarget(options);
    sides.push({ index, scale, ctx, runnable, dropped: new Set() });
  }
  return sides;
}

/** Rounds at one connection count, each at every scale, until precise enough, out of repeats or out of budget. */
async function interleavedRounds(
  plan: ScenarioPlan,
  servers: Server[],
  sides: ScaleSide[],
  connections: number,
  fits: (seconds: number) => boolean,
): Promise<CellResult[]> {
  const cells: CellResult[] = [];
  const first = sides[0] as ScaleSide;
  const { options, counter, io } = first.ctx;
  for (let repeat = 1; ; repeat++) {
    const left = (side: ScaleSide) => side.runnable.filter((t) => !side.dropped.has(t.name));
    if (sides.every((side) => left(side).length === 0)) return cells;
    if (repeat > options.repeats) counter.total += sides.reduce((n, side) => n + roundSize(left(side), side.ctx), 0);
    for (const side of rotated(sides, repeat)) {
      useScale(servers, side.index);
      const round = await runRound(plan, left(side), connections, repeat, side.ctx);
      const tagged = round.map((cell) => ({ ...cell, scale: side.scale }));
      cells.push(...tagged);
      dropFailed(tagged, side.dropped, repeat, `${plan.name} at scale ${side.scale}`, side.ctx);
    }
    if (repeat < options.repeats) continue;
    const widest = widestOfRun(plan.name, connections, cells, sides);
    const reached = Number.isFinite(widest) ? `±${(widest * 100).toFixed(1)}%` : "no interval yet";
    const stop = (why: string) => {
      io.log(`${plan.name}: ${repeat} round(s) at every scale, precision ${reached}${why}`);
      return cells;
    };
    if (Number.isFinite(widest) && widest <= options.precision) return stop("");
    if (repeat >= options.maxRepeats) return stop(" — stopped at --max-repeats");
    const roundSeconds =
      sides.reduce((n, s) => n + roundSize(left(s), s.ctx), 0) * secondsPerCell(counter, plan.cellSeconds);
    if (!fits(roundSeconds)) return stop(" — no time left in the budget");
  }
}

/**
 * The widest 95% half-width the run would publish for this scenario: every target's ratio to its baseline within each
 * scale, and every target's throughput at each larger scale over the smallest's, paired by round.
 */
function widestOfRun(name: ScenarioName, connections: number, cells: CellResult[], sides: ScaleSide[]): number {
  const baseline = baselineFor(scenarios[name].kind).name;
  const first = sides[0] as ScaleSide;
  let widest = 0;
  for (const side of sides) {
    const here = cells.filter((c) => c.scale === side.scale);
    const names = side.runnable.map((t) => t.name).filter((t) => !side.dropped.has(t));
    const within = widestInterval(here, name, connections, names, baseline).halfWidth;
    widest = Math.max(widest, Number.isFinite(within) ? within : Number.POSITIVE_INFINITY);
    if (side === first) continue;
    for (const target of names) {
      const growth = throughputRatio(
        cells,
        { scenario: name, connections, target },
        first.scale,
        side.scale,
        true,
      ).halfWidth;
      widest = Math.max(widest, Number.isFinite(growth) ? growth : Number.POSITIVE_INFINITY);
    }
  }
  return widest;
}
