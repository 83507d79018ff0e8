// --pairing duet: a target and its baseline measured at the same time, each server (with its local PostgreSQL
// backends) in its own control group with an equal CPU quota and its own load generator. Whatever slows the machine
// slows both sides, and the ratio of their requests per CPU-second cancels it (bench/results/precision-study/README.md).

import { LOADGEN_SATURATION } from "../analysis/ratios.ts";
import type { LoadHooks } from "../load/generator.ts";
import { allowedCpus, cpuSeconds, pinProcess, processTree, ServerSampler } from "../proc.ts";
import type { CellResult } from "../results/schema.ts";
import { scenarios } from "../scenarios/catalog.ts";
import { type CellSpec, type CellState, judge, loadConfig, oneLine, serverGone } from "./cell.ts";
import { restock } from "./database.ts";
import type { DuetContext, LiveTarget, ScenarioPlan, ScenarioRunContext } from "./types.ts";

interface Side {
  target: LiveTarget;
  cell: CellResult;
  /** The core this side's server (and, once moved, its backends) runs on. */
  cpu?: string;
  sampler?: ServerSampler;
  backends: number[];
  start?: { group: number; backends: number; wall: number };
}

/** Where a pair is measured: its scenario's plan, connection count, repeat and position in the round. */
interface PairAt {
  plan: ScenarioPlan;
  connections: number;
  repeat: number;
  position: number;
}

type DuetRunContext = ScenarioRunContext & { duet: DuetContext };

/** The two cells of one pair, in the order given: [partner, target]. Never throws (failures go into the cells). */
export async function measurePair(
  plan: ScenarioPlan,
  pair: readonly [LiveTarget, LiveTarget],
  connections: number,
  repeat: number,
  position: number,
  ctx: DuetRunContext,
  state: CellState,
): Promise<[CellResult, CellResult]> {
  const started = performance.now();
  const at = { plan, connections, repeat, position };
  const sides = sidesOf(at, pair, ctx.duet.pin ? duetCores() : []);
  const cells = sides.map((s) => s.cell) as [CellResult, CellResult];
  for (const side of sides) markGone(side);
  if (cells.some((c) => c.failure)) return finish(cells, started);
  // Each side on a core of its own, as a server with a core of its own runs: its GC and compiler threads share
  // that core instead of spreading to the other side's (which side gets which core alternates with the order).
  for (const side of sides) pinSide(side, side.target.process?.pid ? processTree(side.target.process.pid) : []);
  if (scenarios[plan.name].writes) {
    await Promise.all(
      sides.map((s) => s.target.databaseUrl && restock(s.target.databaseUrl, ctx.pools.orderProductIds)),
    );
  }
  const ticker = setInterval(() => {
    state.secondsLeft = Math.max(0, state.secondsLeft - 1);
    ctx.io.progress.update(state);
  }, 1000);
  try {
    const outcomes = await runSides(at, sides, ctx, state);
    for (const [i, outcome] of outcomes.entries()) recordOutcome(sides[i] as Side, outcome, plan, ctx);
  } finally {
    clearInterval(ticker);
    releaseSides(sides);
  }
  return finish(cells, started);
}

/** The pair's two sides, each with its cell begun, and a core of its own where there are two to pin to. */
function sidesOf(at: PairAt, pair: readonly [LiveTarget, LiveTarget], cores: string[]): Side[] {
  const id = `${at.plan.name}@${at.connections}#${at.repeat}.${at.position}`;
  return pair.map((target, i) => ({
    target,
    backends: [],
    ...(cores.length >= 2 ? { cpu: cores[i % cores.length] } : {}),
    cell: {
      scenario: at.plan.name,
      connections: at.connections,
      repeat: at.repeat,
      target: target.name,
      position: at.position,
      startedAt: new Date().toISOString(),
      pair: { id, with: (pair[1 - i] as LiveTarget).name },
    },
  }));
}

function markGone(side: Side) {
  const gone = serverGone(side.target, side.cell);
  if (gone) side.cell.failure = gone;
}

type SideRun = ReturnType<DuetContext["loadGenerators"][number]["run"]>;

/**
 * Both load generators warm up; once both are ready the backends join their side's group, the counters are read,
 * and both measured parts start. A side that failed before it was ready ends the wait (the pair fails with it).
 */
async function runSides(at: PairAt, sides: Side[], ctx: DuetRunContext, state: CellState) {
  let ready = 0;
  let goes: () => void = () => {};
  const allReady = new Promise<void>((resolve) => {
    goes = resolve;
  });
  const runs: SideRun[] = sides.map((side, i) => {
    const generator = ctx.duet.loadGenerators[i] as DuetContext["loadGenerators"][number];
    const spec: CellSpec = {
      scenario: at.plan.name,
      target: side.target,
      connections: at.connections,
      repeat: at.repeat,
      position: at.position,
      warmupS: at.plan.warmupS,
      durationS: at.plan.durationS,
    };
    const onPhase: LoadHooks["onPhase"] = (phase) => {
      if (phase === "warmup") state.phase = "warming up";
      if (phase === "ready" && ++ready === sides.length) goes();
      if (phase === "measure") state.phase = "measuring";
      if (phase === "done") stopSide(side);
      ctx.io.progress.update(state);
    };
    return generator.run({ ...loadConfig(spec, ctx), sync: true }, { onPhase });
  });
  const failedEarly = Promise.race(
    runs.map((run) =>
      run.then(
        () => new Promise<void>(() => {}),
        () => undefined,
      ),
    ),
  );
  await Promise.race([allReady, failedEarly]);
  if (ready === sides.length) await Promise.all(sides.map((side) => startSide(side, ctx.duet)));
  for (const generator of ctx.duet.loadGenerators) generator.go();
  return Promise.allSettled(runs);
}

/** A side's cell from its load generator's run: its outcome and figures, judged; or why it failed. */
function recordOutcome(
  side: Side,
  outcome: PromiseSettledResult<Awaited<SideRun>>,
  plan: ScenarioPlan,
  ctx: DuetRunContext,
) {
  if (outcome.status === "rejected") {
    side.cell.failure = serverGone(side.target, side.cell) ?? oneLine((outcome.reason as Error).message);
    return;
  }
  const run = outcome.value;
  side.cell.outcome = run.outcome;
  side.cell.loadGenerator = { cpuCores: run.cpuCores, saturated: run.cpuCores >= LOADGEN_SATURATION };
  recordGroup(side, run.outcome.completed);
  judge(side.cell, plan.durationS, ctx.options.smoke);
  markGone(side);
}

/** Back on every core: the backends are PostgreSQL's again, and the next pair pins the servers itself. */
function releaseSides(sides: Side[]) {
  for (const side of sides) {
    side.target.group?.releaseAdopted();
    const pid = side.target.process?.pid;
    if (side.cpu) unpin([...side.backends, ...(pid ? processTree(pid) : [])]);
  }
}

let cores: string[] | undefined;
/** The cores the sides are pinned to (none with fewer than two, or without taskset). */
function duetCores(): string[] {
  if (!cores) {
    const allowed = allowedCpus();
    cores = allowed.taskset ? allowed.cpus.slice(0, 2).map(String) : [];
  }
  return cores;
}

function pinSide(side: Side, pids: number[]) {
  if (!side.cpu) return;
  for (const pid of pids) pinProcess(pid, side.cpu);
}

function unpin(pids: number[]) {
  const every = allowedCpus();
  if (!every.taskset || every.cpus.length < 2) return;
  for (const pid of pids) pinProcess(pid, every.cpus.join(","));
}

function finish(cells: [CellResult, CellResult], started: number): [CellResult, CellResult] {
  for (const cell of cells) cell.wallS = (performance.now() - started) / 1000;
  return cells;
}

/** The side's backends moved into its group, then its counters read: its measured part starts right after. */
async function startSide(side: Side, duet: DuetContext) {
  const { target } = side;
  if (target.databaseUrl && duet.backends && target.group) {
    const pids = await duet.backends(target.databaseUrl);
    side.backends = pids.filter((pid) => target.group?.adopt(pid));
    pinSide(side, side.backends);
  }
  if (target.process?.pid) {
    side.sampler = new ServerSampler(target.process.pid);
    side.sampler.start();
  }
  side.start = {
    group: target.group?.cpuSeconds() ?? Number.NaN,
    backends: side.backends.length > 0 ? cpuSeconds(side.backends) : Number.NaN,
    wall: performance.now(),
  };
}

interface Stopped {
  group: number;
  backends: number;
  wall: number;
  server?: ReturnType<ServerSampler["stop"]>;
}
const stopped = new WeakMap<Side, Stopped>();

/** The side's counters as its measured part ends. */
function stopSide(side: Side) {
  if (!side.start) return;
  stopped.set(side, {
    group: side.target.group?.cpuSeconds() ?? Number.NaN,
    backends: side.backends.length > 0 ? cpuSeconds(side.backends) : Number.NaN,
    wall: performance.now(),
    ...(side.sampler ? { server: side.sampler.stop() } : {}),
  });
}

/** The cell's server, PostgreSQL and group figures from its counters. */
function recordGroup(side: Side, completed: number) {
  const end = stopped.get(side);
  const { start, cell, target } = side;
  if (!start || !end) return;
  const wall = (end.wall - start.wall) / 1000;
  const perRequest = (seconds: number) => (seconds * 1e6) / Math.max(1, completed);
  if (end.server) cell.server = { ...end.server, cpuMicrosPerRequest: perRequest(end.server.cpuSeconds) };
  const backends = end.backends - start.backends;
  if (Number.isFinite(backends)) {
    cell.postgres = { cpuCores: backends / wall, cpuMicrosPerRequest: perRequest(backends) };
  }
  const groupSeconds = end.group - start.group;
  const quota = target.group?.quotaCores;
  if (Number.isFinite(groupSeconds) && quota !== undefined && wall > 0) {
    cell.group = {
      cpuSeconds: groupSeconds,
      quotaCores: quota,
      usedShare: groupSeconds / wall / quota,
      backends: side.backends.length,
      ...(side.cpu ? { cpu: side.cpu } : {}),
    };
  }
}
