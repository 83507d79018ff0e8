// Every scenario in turn on the run's servers, with the budget shared out: extra repeats only while the rest fits.
import { baselineFor, targetsOfScenario } from "../baselines.ts";
import { formatBytes } from "../limits.ts";
import type { LoadGenerator } from "../load/generator.ts";
import type { BenchOptions } from "../options/types.ts";
import type { Profiler } from "../profile/recorder.ts";
import type { CapacityResult, CellResult, VerificationRecord } from "../results/schema.ts";
import { type ScenarioName, scenarios } from "../scenarios/catalog.ts";
import { scenarioCost } from "./cost.ts";
import type { DataSource } from "./data.ts";
import { duetPartner, liveServers } from "./lineup.ts";
import { runScenario } from "./scenario.ts";
import type { Server } from "./servers.ts";
import type { CellCounter, DuetContext, Restarter, RunIo, ScenarioRunContext } from "./types.ts";

export interface Measured {
  cells: CellResult[];
  verification: VerificationRecord[];
  curve: CellResult[];
  capacity: CapacityResult[];
  probes: CellResult[];
}

export interface MeasureContext {
  data: DataSource;
  seed: number;
  loadGenerator: LoadGenerator;
  duet: DuetContext | undefined;
  /** When the run started (performance.now()): the budget counts from there. */
  started: number;
  io: RunIo;
  profiler: Profiler | undefined;
  /** --restart cell: fresh processes per cell (absent: each server runs for the whole run). */
  restart: Restarter | undefined;
  /** --count instructions: where the servers' callgrind dumps are written. */
  callgrindDir: string | undefined;
}

export async function measureAll(
  options: BenchOptions,
  selected: ScenarioName[],
  servers: Server[],
  shared: MeasureContext,
): Promise<Measured> {
  const measured: Measured = { cells: [], verification: [], curve: [], capacity: [], probes: [] };
  const cost = (s: ScenarioName) => scenarioCost(options, s, shared.restart !== undefined);
  const deadline = options.budgetMinutes === undefined ? undefined : shared.started / 1000 + options.budgetMinutes * 60;
  const counter: CellCounter = { cell: 0, total: selected.reduce((n, s) => n + cost(s).cells, 0) };
  const memoryLimit = options.memoryBytes === undefined ? undefined : formatBytes(options.memoryBytes);
  const { duet } = shared;
  for (const [index, name] of selected.entries()) {
    const fits = scenarioFits(deadline, selected, index, cost);
    const partners = duet ? (target: string) => duetPartner(options, name, target) : undefined;
    const live = liveServers(servers, targetsOfScenario(options, name), memoryLimit, partners);
    const outcome = await runScenario(name, live, {
      ...scenarioContext(options, name, servers, shared, counter),
      ...(fits ? { canExtend: fits } : {}),
    });
    for (const key of ["verification", "cells", "curve", "capacity", "probes"] as const) {
      (measured[key] as unknown[]).push(...outcome[key]);
    }
  }
  return measured;
}

/**
 * Whether `seconds` more fit in the budget of the scenario at `index` (undefined: no budget). The budget's spare time
 * (beyond every scenario's least repeats) is shared evenly among the scenarios left, so that the first cannot spend it
 * all; what one leaves unused goes to those after it.
 */
export function scenarioFits(
  deadline: number | undefined,
  selected: readonly ScenarioName[],
  index: number,
  cost: (name: ScenarioName) => { seconds: number },
): ((seconds: number) => boolean) | undefined {
  if (deadline === undefined) return undefined;
  const later = selected.slice(index + 1).reduce((n, s) => n + cost(s).seconds, 0);
  const now = performance.now() / 1000;
  const own = cost(selected[index] as ScenarioName).seconds;
  const share = Math.max(0, (deadline - now - own - later) / (selected.length - index));
  const scenarioDeadline = now + own + share;
  return (seconds) => performance.now() / 1000 + seconds <= scenarioDeadline;
}

/** What one scenario's runner gets of the run. */
export function scenarioContext(
  options: BenchOptions,
  name: ScenarioName,
  servers: Server[],
  shared: MeasureContext,
  counter: CellCounter,
): ScenarioRunContext {
  return {
    pools: shared.data.pools,
    seed: shared.seed,
    options,
    loadGenerator: shared.loadGenerator,
    ...(shared.duet ? { duet: shared.duet } : {}),
    ...(shared.data.postmaster ? { postmaster: shared.data.postmaster } : {}),
    baseline: baselineFor(scenarios[name].kind).name,
    io: shared.io,
    counter,
    ...(shared.profiler ? { profiler: shared.profiler } : {}),
    ...(shared.restart ? { restart: shared.restart } : {}),
    ...(shared.callgrindDir ? { callgrindDir: shared.callgrindDir } : {}),
    output: (target) => servers.find((t) => t.info.name === target)?.running?.output() ?? "",
  };
}
