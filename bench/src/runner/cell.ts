// One cell: one target, one scenario, one connection count (and rate), warmed up then measured, with the server's,
// PostgreSQL's and the whole machine's CPU sampled over the measured part.

import { LOADGEN_SATURATION } from "../analysis/ratios.ts";
import type { LoadConfig } from "../load/child.ts";
import type { LoadRun } from "../load/generator.ts";
import { machineBusySeconds, ServerSampler } from "../proc.ts";
import type { Profiler } from "../profile/recorder.ts";
import type { Progress } from "../progress.ts";
import type { CellResult } from "../results/schema.ts";
import { type ScenarioName, scenarios } from "../scenarios/catalog.ts";
import { restock } from "./database.ts";
import type { LiveTarget, ScenarioRunContext } from "./types.ts";

/**
 * CPU (in cores) that other processes may use during a measured run before the cell counts as disturbed: on a
 * 2-core machine a quarter of a core of other work moves throughput by more than the 5% a ratio is asked to hold.
 */
export const DISTURBANCE_CORES = 0.25;

/** A response slower than this counts as a socket error (scrypt logins at 300 connections queue for seconds). */
export const LOAD_TIMEOUT_S = 30;

export type CellState = Parameters<Progress["update"]>[0];

export interface CellSpec {
  scenario: ScenarioName;
  target: LiveTarget;
  connections: number;
  repeat: number;
  position: number;
  warmupS: number;
  durationS: number;
  /** A fixed arrival rate for this cell (a rate step or a probe); else the run's --rate, if any. */
  rate?: number;
}

export const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").slice(0, 400);

/** Why the server cannot be measured any more, or undefined while it runs (or is not ours). */
export function serverGone(target: LiveTarget, cell: CellResult): string | undefined {
  const p = target.process;
  if (!p || (p.exitCode === null && p.signalCode === null && p.pid)) return undefined;
  if (target.oomKills && target.oomKills() > 0) {
    cell.oomKilled = true;
    return `the server was killed by the OOM killer at its --memory limit (${target.memoryLimit})`;
  }
  return `the server exited (${p.exitCode ?? p.signalCode})`;
}

type Sample = ReturnType<ServerSampler["stop"]>;
interface MachinePoint {
  busy: number;
  wall: number;
  harness: NodeJS.CpuUsage;
}

/** The server's and PostgreSQL's CPU and the machine's, from the start of the measured part to its end. */
class CellSamplers {
  server?: Sample;
  postgres?: Sample;
  start: MachinePoint = { busy: Number.NaN, wall: 0, harness: process.cpuUsage() };
  end: MachinePoint = { busy: Number.NaN, wall: 0, harness: { user: 0, system: 0 } };
  private readonly serverSampler?: ServerSampler;
  private readonly postgresSampler?: ServerSampler;

  constructor(serverPid: number | undefined, postmaster: number | undefined) {
    if (serverPid) this.serverSampler = new ServerSampler(serverPid);
    if (postmaster) this.postgresSampler = new ServerSampler(postmaster);
  }

  measuring() {
    this.serverSampler?.start();
    this.postgresSampler?.start();
    this.start = { busy: machineBusySeconds(), wall: performance.now(), harness: process.cpuUsage() };
  }

  done() {
    this.server = this.serverSampler?.stop();
    this.postgres = this.postgresSampler?.stop();
    this.end = { busy: machineBusySeconds(), wall: performance.now(), harness: process.cpuUsage(this.start.harness) };
  }
}

/** The figures of a finished run: server and PostgreSQL CPU per request, load generator, other work. */
function recordFigures(cell: CellResult, run: LoadRun, s: CellSamplers, framework: boolean) {
  const { outcome } = run;
  cell.outcome = outcome;
  const perRequest = (cpuSeconds: number) => (cpuSeconds * 1e6) / Math.max(1, outcome.completed);
  if (s.server) cell.server = { ...s.server, cpuMicrosPerRequest: perRequest(s.server.cpuSeconds) };
  if (s.postgres) {
    cell.postgres = { cpuCores: s.postgres.cpuCores, cpuMicrosPerRequest: perRequest(s.postgres.cpuSeconds) };
  }
  cell.loadGenerator = { cpuCores: run.cpuCores, saturated: run.cpuCores >= LOADGEN_SATURATION };
  // Only where every process of the run is accounted for: the server is ours, and PostgreSQL too when the
  // scenario uses it (a container's or remote server's CPU cannot be told apart from other work).
  const wall = (s.end.wall - s.start.wall) / 1000;
  if (!s.server || !(framework || s.postgres) || wall <= 0 || !Number.isFinite(s.end.busy)) return;
  const harness = (s.end.harness.user + s.end.harness.system) / 1e6;
  const own = s.server.cpuSeconds + (s.postgres?.cpuSeconds ?? 0) + run.cpuCores * wall + harness;
  cell.otherCpuCores = Math.max(0, (s.end.busy - s.start.busy - own) / wall);
  cell.disturbed = cell.otherCpuCores >= DISTURBANCE_CORES;
}

/** Unexpected statuses, socket errors or no answer at all make a cell fail (or, in a smoke run, a note). */
export function judge(cell: CellResult, durationS: number, smoke: boolean) {
  const outcome = cell.outcome;
  if (!outcome) return;
  if (outcome.non2xx > 0) {
    const statuses = Object.entries(outcome.statusCounts)
      .filter(([s]) => !s.startsWith("2"))
      .map(([s, n]) => `${n}× ${s}`)
      .join(", ");
    cell.failure = `${outcome.non2xx} unexpected non-2xx responses (${statuses})`;
  } else if (outcome.errors > 0) {
    cell.failure = `${outcome.errors} socket errors (${outcome.timeouts} timeouts)`;
  } else if (outcome.completed === 0) {
    // A smoke run checks correctness under load, not speed: on a busy machine a second can pass without
    // an answer (scrypt logins), which is no wrong answer. A measuring run cannot report such a cell.
    if (smoke) cell.note = `no response completed in ${durationS} s (not counted as a failure in a smoke run)`;
    else cell.failure = `no response completed in ${durationS} s`;
  }
}

export function loadConfig(spec: CellSpec, ctx: ScenarioRunContext): LoadConfig {
  const rate = spec.rate ?? ctx.options.rate;
  return {
    url: spec.target.url,
    scenario: spec.scenario,
    pools: ctx.pools,
    seed: ctx.seed,
    connections: spec.connections,
    pipelining: ctx.options.pipelining,
    warmupS: spec.warmupS,
    durationS: spec.durationS,
    ...(rate ? { rate } : {}),
    timeoutS: LOAD_TIMEOUT_S,
  };
}

/** A cell's record before it runs: what it measures, where and when, on which process. */
export function newCell(spec: CellSpec): CellResult {
  const pid = spec.target.process?.pid;
  return {
    scenario: spec.scenario,
    connections: spec.connections,
    repeat: spec.repeat,
    target: spec.target.name,
    position: spec.position,
    startedAt: new Date().toISOString(),
    ...(spec.rate ? { rate: spec.rate } : {}),
    ...(pid ? { pid } : {}),
  };
}

/** Runs one cell; never throws (what went wrong is the cell's failure). */
export async function measureCell(spec: CellSpec, ctx: ScenarioRunContext, state: CellState): Promise<CellResult> {
  const started = performance.now();
  const { target } = spec;
  const cell = newCell(spec);
  const gone = serverGone(target, cell);
  if (gone) {
    cell.failure = gone;
    return cell;
  }
  const scenario = scenarios[spec.scenario];
  if (scenario.writes && target.databaseUrl) await restock(target.databaseUrl, ctx.pools.orderProductIds);
  const samplers = new CellSamplers(target.process?.pid, ctx.postmaster);
  const pid = target.process?.pid;
  let profiling: ReturnType<Profiler["start"]>;
  let profiled: Promise<string | undefined> | undefined;
  const ticker = setInterval(() => {
    state.secondsLeft = Math.max(0, state.secondsLeft - 1);
    ctx.io.progress.update(state);
  }, 1000);
  try {
    const run = await ctx.loadGenerator.run(loadConfig(spec, ctx), {
      onPhase: (phase) => {
        state.phase = phase === "warmup" ? "warming up" : phase === "measure" ? "measuring" : "done";
        ctx.io.progress.update(state);
        if (phase === "measure") samplers.measuring();
        if (phase === "done") samplers.done();
        if (phase === "measure" && ctx.profiler) {
          const server = {
            name: target.name,
            ...(pid ? { pid } : {}),
            ...(target.profile ? { profile: target.profile } : {}),
          };
          profiling = ctx.profiler.start(server, cell);
        }
        if (phase === "done") profiled = profiling?.stop();
      },
    });
    recordFigures(cell, run, samplers, scenario.kind === "framework");
    const profile = await profiled;
    if (profile) cell.profile = profile;
    judge(cell, spec.durationS, ctx.options.smoke);
    // A server that died under load (its --memory limit, a crash) is the failure, not the socket errors after.
    const gone = serverGone(target, cell);
    if (gone) cell.failure = gone;
  } catch (error) {
    cell.failure = serverGone(target, cell) ?? oneLine((error as Error).message);
  } finally {
    clearInterval(ticker);
  }
  cell.wallS = (performance.now() - started) / 1000;
  return cell;
}
