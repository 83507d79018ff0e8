// The benchmark run as a pipeline: plan it, provision and seed PostgreSQL, start every server (under --cpus/--memory
// or duet's groups when asked), measure scenario by scenario, analyse the cells, and assemble results.json.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { type PostgresServer, provisionPostgres } from "@api-ref/db/provision";
import { REPO_ROOT } from "@api-ref/harness";
import { unavailableBaselines } from "./baselines.ts";
import { Disturbance } from "./disturb.ts";
import { LoadGenerator } from "./load/generator.ts";
import type { BenchOptions } from "./options/types.ts";
import { machineInfo } from "./proc.ts";
import { Profiler } from "./profile/recorder.ts";
import { timestampDir } from "./report/write.ts";
import type { Results, ScenarioInfo, TargetInfo } from "./results/schema.ts";
import { CallgrindUnavailable, callgrindMissing, dumpDirectory } from "./runner/callgrind.ts";
import { type DataSource, prepareData } from "./runner/data.ts";
import { interleavesScales, measureInterleaved } from "./runner/interleave.ts";
import { duetContext, planLimits } from "./runner/limits-plan.ts";
import { checkRemoteEnvironment, describeScenarios, planServers } from "./runner/lineup.ts";
import { type Measured, measureAll } from "./runner/measure.ts";
import { applyPinning, runPinning } from "./runner/pinning.ts";
import { analyse, assembleResults, combineScales, limitsRecord, type ScalePass } from "./runner/record.ts";
import { copyScales, restarter, startAll, stopAll } from "./runner/servers.ts";
import type { DuetContext, RunIo } from "./runner/types.ts";
import { executionOrder } from "./scenarios/catalog.ts";

export { findLocalPostmaster, restock, samplePools } from "./runner/database.ts";
export { DUET_PERIOD_US } from "./runner/limits-plan.ts";
export { duetPartner } from "./runner/lineup.ts";
export { planPinning } from "./runner/pinning.ts";
export { widestInterval } from "./runner/repeats.ts";
export { runScenario } from "./runner/scenario.ts";
export { withWorkers } from "./runner/servers.ts";
export type { LiveTarget, RunIo, ScenarioRunContext } from "./runner/types.ts";

export async function runBench(asked: BenchOptions, io: RunIo): Promise<Results> {
  const startedAt = new Date();
  const machine = machineInfo();
  const seed = randomBytes(4).readUInt32BE() >>> 1;
  const run = planRun(asked, io, startedAt, seed);
  const held: Held = {};
  try {
    // Provision and seed: one template per scale (a growth run's every scale is seeded before any is measured).
    held.postgres = run.remote ? undefined : await provisionPostgres({ log: io.log });
    const started = performance.now();
    const datas: DataSource[] = [];
    for (const scale of run.options.scales) {
      datas.push(await prepareData(run.options, scale, held.postgres, seed, run.jwtSecret, io));
    }
    const first = datas[0] as DataSource;
    const postgresPinning = applyPinning(run.pinning, first.postmaster);
    announceGroups(run, first, io);
    const scenarioInfos = describeScenarios(run.options, run.selected, run.servers);
    held.loadGenerator = new LoadGenerator(run.pinning.loadGenerator);
    held.duet = run.duet ? duetContext(first.postmaster, run.options.pin) : undefined;
    if (run.disturbance) {
      io.log(`disturbance: ${run.options.disturb} bursty CPU hog(s) until the end of the run`);
      run.disturbance.start();
    }
    const infos = () => run.servers.map((t) => t.info);
    const callgrindDir = run.callgrind?.dir;
    const measureCtx = { seed, loadGenerator: held.loadGenerator, duet: held.duet, started, io, callgrindDir };
    let passes: ScalePass[];
    let scaleOrder: "interleaved" | "sequential" = "sequential";
    if (interleavesScales(run.options, held.postgres !== undefined)) {
      // Every scale's data beside the servers, the scales measured round by round (runner/interleave.ts).
      scaleOrder = "interleaved";
      const restart = await startServers(run, held.postgres, first, io);
      await copyScales(
        run.servers,
        held.postgres as PostgresServer,
        datas.map((d) => d.templateName),
      );
      io.log(
        `growth: scales ${run.options.scales.join(", ")} measured round by round, each server on its copy of each`,
      );
      const shared = { ...measureCtx, profiler: run.profiler, restart };
      const measured = await measureInterleaved(run.options, run.selected, run.servers, datas, shared);
      passes = measured.map((m, index) => scalePass(run, datas, index, m, scenarioInfos, infos()));
    } else {
      // Start, measure and analyse, scale by scale.
      passes = [];
      for (const [index, data] of datas.entries()) {
        const scale = run.options.scales[index] as number;
        if (index > 0) await stopAll(run.servers, held.postgres as PostgresServer);
        if (datas.length > 1) io.log(`growth: scale ${scale} (${data.rows.orders} orders), servers on its data`);
        const restart = await startServers(run, held.postgres, data, io);
        const options = budgetShare(run.options, index);
        const shared = { ...measureCtx, data, restart, profiler: run.profiler };
        const measured = await measureAll(options, run.selected, run.servers, shared);
        passes.push(scalePass(run, datas, index, measured, scenarioInfos, infos()));
      }
    }
    io.progress.done();
    // Assemble.
    const limits = run.duet ? undefined : run.limits;
    const record = {
      ...run,
      startedAt,
      machine,
      seed,
      postgresPinning,
      data: first,
      infos: infos(),
      scenarioInfos,
      limits,
    };
    return assembleResults(record, combineScales(passes, scaleOrder));
  } finally {
    await release(run, held, io);
  }
}

/** One scale's cells analysed on their own (each ratio within the scale). */
function scalePass(
  run: RunPlan,
  datas: readonly DataSource[],
  index: number,
  measured: Measured,
  scenarioInfos: ScenarioInfo[],
  infos: TargetInfo[],
): ScalePass {
  const data = datas[index] as DataSource;
  const scale = run.options.scales[index] as number;
  return { scale, rows: data.rows, measured, analysis: analyse(scenarioInfos, infos, measured) };
}

/**
 * The options one scale is measured with: a growth run's budget shared out by scale, each scale's deadline its
 * share of the whole (so that the first cannot spend the time of all; what one leaves goes to the next).
 */
function budgetShare(options: BenchOptions, index: number): BenchOptions {
  if (options.budgetMinutes === undefined || options.scales.length === 1) return options;
  return { ...options, budgetMinutes: (options.budgetMinutes * (index + 1)) / options.scales.length };
}

/** What the run holds while it runs, released whatever happens. */
interface Held {
  postgres?: PostgresServer | undefined;
  loadGenerator?: LoadGenerator;
  duet?: DuetContext | undefined;
}

/** Everything decided before anything starts: the options as the machine allows them, the servers, the pinning. */
function planRun(asked: BenchOptions, io: RunIo, startedAt: Date, seed: number) {
  const remote = asked.targets.length > 0;
  const selected = executionOrder(asked.scenarios);
  checkRemoteEnvironment(remote, selected);
  // The servers' secret: a fresh one for the servers this run starts, the targets' own for servers elsewhere.
  const jwtSecret = remote ? (process.env.JWT_SECRET ?? "") : randomBytes(32).toString("base64url");
  // A row whose runtime has no binary here (or FastAPI without its environment) is left out, said in one line.
  for (const impl of asked.impls.filter((i) => i.unavailable)) io.log(`skipping ${impl.name}: ${impl.unavailable}`);
  const { options, limits } = planLimits({ ...asked, impls: asked.impls.filter((i) => !i.unavailable) }, io);
  const duet = options.pairing === "duet";
  const pinning = runPinning(options, remote, duet);
  const servers = planServers(options, selected, remote);
  for (const { name, reason } of unavailableBaselines(options, selected)) io.log(`skipping ${name}: ${reason}`);
  // Profiles go where the reports will (the same default directory as the CLI's, from the same start time).
  const profiler = options.profile
    ? new Profiler(options.outDir ?? join(REPO_ROOT, "bench", "results", timestampDir(startedAt)))
    : undefined;
  const disturbance = options.disturb ? new Disturbance(options.disturb, seed) : undefined;
  const callgrind = options.instructions ? countingDirectory() : undefined;
  return { remote, selected, jwtSecret, options, limits, duet, pinning, servers, profiler, disturbance, callgrind };
}

/** --count instructions: where the servers' dumps go, once valgrind is known to be here (else the one line why not). */
function countingDirectory() {
  const missing = callgrindMissing();
  if (missing) throw new CallgrindUnavailable(`--count instructions: ${missing}`);
  return dumpDirectory();
}
type RunPlan = ReturnType<typeof planRun>;

/** Says which groups the servers run in: --cpus/--memory's, or duet's. */
function announceGroups(run: RunPlan, data: DataSource, io: RunIo) {
  const { options, limits } = run;
  if (limits && !run.duet) {
    io.log(`servers limited: ${limitsRecord(options, limits, run.pinning).note} (${limits.description})`);
  }
  if (run.duet) {
    const backends = data.postmaster
      ? " with the PostgreSQL backends serving it"
      : " (PostgreSQL is not a local process: its CPU is outside the groups)";
    io.log(
      `pairing: duet — each target beside its baseline, each server in its own control group at ${options.duetCpus} ` +
        `CPU${backends} (${limits?.description})`,
    );
  }
}

/** Builds and starts the servers (none with --target); with --restart cell, what restarts them per cell. */
async function startServers(run: RunPlan, postgres: PostgresServer | undefined, data: DataSource, io: RunIo) {
  if (!postgres) return undefined;
  const { options, servers, jwtSecret, pinning, limits, profiler, callgrind } = run;
  const templateName = data.templateName;
  const ctx = await startAll(servers, {
    options,
    server: postgres,
    templateName,
    jwtSecret,
    pinning,
    io,
    limits,
    profiler,
    ...(callgrind ? { callgrindDir: callgrind.dir } : {}),
  });
  if (options.restart !== "cell") return undefined;
  io.log("restart: a fresh process for every server before each of its measured cells");
  return restarter(servers, ctx);
}

async function release(run: RunPlan, held: Held, io: RunIo) {
  io.progress.done();
  run.disturbance?.stop();
  held.loadGenerator?.close();
  for (const generator of held.duet?.loadGenerators ?? []) generator.close();
  await Promise.allSettled(run.servers.map((t) => t.running?.stop()));
  run.limits?.removeAll();
  await held.postgres?.stop();
  await run.profiler?.cleanup();
  run.callgrind?.remove();
}
