// The shape of results.json: what a run records (targets, scenarios, raw cells) and what it derives from them
// (summary rows, the split, A/A lines). Types only: the derivations are in ../analysis/.
import type { LoadOutcome } from "../load/outcome.ts";
import type { MachineInfo } from "../proc.ts";
import type { ProfileSummary } from "../profile/recorder.ts";
import type { ScenarioKind, ScenarioName } from "../scenarios/types.ts";
import type { Interval, MeanDifference, Spread } from "../stats.ts";
import type { Verification } from "../verify.ts";

/** --slo: a latency bound, one probe of the search for the highest rate keeping it, and what the search found. */
export interface Slo {
  percentile: number;
  boundMs: number;
}

export interface Probe {
  rate: number;
  passed: boolean;
  /** The percentile measured (ms), and why the probe failed when it did. */
  latencyMs: number;
  why?: string;
  /** The full-length confirmation runs. */
  confirmation?: boolean;
}

export interface CapacityResult {
  scenario: string;
  target: string;
  connections: number;
  slo: Slo;
  /** Highest rate confirmed (requests/s); 0 when not even the lowest rate tried held. */
  rate: number;
  /** The full-length run at `rate` held the bound (false: no rate held, see note). */
  confirmed: boolean;
  resolution: number;
  probes: Probe[];
  note?: string;
}

export interface TargetInfo {
  name: string;
  role: "implementation" | "baseline";
  framework: string;
  variant: string;
  language: string;
  /** What runs it: node, bun, deno, python (absent in runs written before rows had runtimes: node, or python). */
  runtime?: string;
  /** For a baseline: the scenario kind it is the baseline of. */
  baselineFor?: ScenarioKind;
  /** For a baseline: the limit every ratio is taken to, or an implementation language's data access alone. */
  layer?: "limit" | "data-access";
  /** Measured where it already ran (--target): no CPU or memory figures. */
  remote?: boolean;
  /** For an A/A twin: the baseline it is a second process of. */
  twinOf?: string;
  build?: { ms: number; ok: boolean; error?: string };
  startupMs?: number;
  idleRssBytes?: number;
  /** Processes in the server's tree when idle (a cluster primary and its workers, uvicorn's supervisor…). */
  processes?: number;
  /** Why it could not be measured at all (build or start-up failure). */
  error?: string;
  versions: Record<string, string>;
}

export interface ScenarioInfo {
  name: ScenarioName;
  title: string;
  kind: ScenarioKind;
  /** The reference baseline: Node's limit (node-http, node-http-pg), the run's A/A line and every row's `rpsRatio`. */
  baseline: string;
  /**
   * Per runtime of the measured rows, its own limit baseline (`bun` → bun-http…), which `runtimeRpsRatio` is taken
   * to; absent in runs written before runtimes had baselines (then every row's is `baseline`).
   */
  runtimes?: Partial<Record<string, string>>;
  /** Per language and runtime (`typescript`, `typescript@bun`, `[sql]` for sql mode: see layerKey), its data-access baseline. */
  layers?: Partial<Record<string, string>>;
}

export interface CellResult {
  scenario: ScenarioName;
  connections: number;
  /** A growth run's data scale this cell was measured at (absent in a one-scale run: the run's `scale`). */
  scale?: number;
  /** 1-based. */
  repeat: number;
  target: string;
  /** Position in this repeat's order (implementations are interleaved and the order rotates per repeat). */
  position: number;
  /** When the cell began, and how long it took in all (warm-up, drain and measurement included). */
  startedAt?: string;
  wallS?: number;
  outcome?: LoadOutcome;
  server?: { cpuCores: number; cpuSeconds: number; peakRssBytes: number; cpuMicrosPerRequest: number };
  loadGenerator?: { cpuCores: number; saturated: boolean };
  /** PostgreSQL's whole process tree over the measured part, when it runs on this machine. */
  postgres?: { cpuCores: number; cpuMicrosPerRequest: number };
  /**
   * CPU used on the machine during the measured part by processes not of this run (all CPU from /proc/stat
   * minus the server's, PostgreSQL's, the load generator's and the harness's), in cores.
   */
  otherCpuCores?: number;
  /** otherCpuCores reached DISTURBANCE_CORES: the machine was busy with other work. */
  disturbed?: boolean;
  /** Set when a later run of the same cell replaced this one (it was disturbed): kept for the record, not counted. */
  discarded?: string;
  /** Set when the cell does not count: unexpected non-2xx, socket errors, a crash. */
  failure?: string;
  /** The fixed arrival rate of this cell when it was a --rate step or an --slo probe (requests/s). */
  rate?: number;
  /** The server was killed by the OOM killer at its --memory limit during this cell. */
  oomKilled?: boolean;
  /** --profile: the server's CPU profile over this cell's measured part (relative to the results directory). */
  profile?: string;
  /** duet: the pair this cell ran in (both cells of a pair share `id`, at the same time) and the other side's target. */
  pair?: { id: string; with: string };
  /**
   * duet: the cell's control group over its measured part, from the kernel's accounting (the server and its local
   * PostgreSQL backends): `cpuSeconds` / completed is its CPU per request; `usedShare` = CPU / quota (1: saturated).
   */
  group?: { cpuSeconds: number; quotaCores: number; usedShare: number; backends: number; cpu?: string };
  /**
   * --count instructions: guest instructions per request under callgrind (user space only), the mean of `rounds`,
   * each a round of `requests` after `warmupRequests` uncounted ones, on this cell's own process.
   */
  instructions?: { perRequest: number; rounds: number[]; requests: number; warmupRequests: number };
  /** Something to know that is not a failure (a smoke cell that saw no answer in its second). */
  note?: string;
  /** The server's process id when the bench started it: one per cell with --restart cell, per target with run. */
  pid?: number;
  /** --restart cell: this cell's process's start-up (spawn to first GET /health answer, ms), paired by repeat in claims. */
  startupMs?: number;
}

export interface VerificationRecord extends Verification {
  scenario: ScenarioName;
  target: string;
  /** A growth run's data scale (absent in a one-scale run). */
  scale?: number;
}

export interface SummaryRow {
  scenario: ScenarioName;
  connections: number;
  /** A growth run's data scale: every ratio of the row is within that scale (absent in a one-scale run). */
  scale?: number;
  target: string;
  role: TargetInfo["role"];
  /** What runs the target (node, bun, deno, python). */
  runtime: string;
  /** The reference baseline (Node's limit), the one `rpsRatio` and `cpuRatio` are taken to. */
  baseline: string;
  /** ok: every repeat counted; failed: verification failed or some repeat failed (then nothing is reported). */
  status: "ok" | "failed";
  failure?: string;
  repeats: number;
  rps: Spread;
  /** Requests/s over the baseline's, paired by repeat, with its 95% confidence interval. */
  rpsRatio: Interval;
  /** The baseline's server CPU per request over this target's (below 1: costlier), paired, with its interval. */
  cpuRatio: Interval;
  /** The target's own runtime's limit baseline (bun-http…); absent where its runtime has none here (Python). */
  runtimeBaseline?: string;
  /**
   * The two ratios to `runtimeBaseline`: the framework's cost on its own runtime, without what the runtime changes.
   * Equal to rpsRatio/cpuRatio on Node rows; no interval (n = 0) without a runtime baseline.
   */
  runtimeRpsRatio: Interval;
  runtimeCpuRatio: Interval;
  /** --count instructions: the baseline's instructions per request over this target's, and to its runtime's limit. */
  insRatio?: Interval;
  runtimeInsRatio?: Interval;
  /** --count instructions: instructions per request over the repeats (each a process's rounds' mean). */
  instructionsPerRequest?: Spread;
  /**
   * --count instructions: the instructions per request this row adds to the raw server of its runtime (its own
   * runtime's baseline), paired process by process: what the framework (and data access) itself costs.
   */
  insAdded?: MeanDifference;
  /**
   * Which ratio to quote: throughput, unless the load generator saturated (≥ LOADGEN_SATURATION) beside this target
   * or its baseline (then requests/s is its limit, and CPU per request, which does not depend on it, is quoted).
   */
  headline: "throughput" | "cpu-per-request" | "instructions-per-request";
  headlineReason: string;
  p50: Spread;
  p90: Spread;
  p99: Spread;
  max: Spread;
  /** Ratios of the median latencies to the baseline's (above 1: slower). */
  p50Ratio: number;
  p99Ratio: number;
  non2xx: number;
  errors: number;
  peakRssBytes: Spread;
  peakRssRatio: number;
  serverCpuCores: Spread;
  cpuMicrosPerRequest: Spread;

  loadGeneratorCpuCores: Spread;
  /** PostgreSQL CPU time per response (when PostgreSQL runs on this machine). */
  postgresMicrosPerRequest: Spread;
  /** Less PostgreSQL CPU per request than the limit baseline (by > 5%): ratios to that baseline flatter this row. */
  beatsBaselineOnPostgres: boolean;
  /** Cells of this row that ran while other work used the machine (after the re-runs allowed). */
  disturbed: number;
  /** The load generator used ≥ LOADGEN_SATURATION of a core in some repeat: the figure may be its limit. */
  loadGeneratorSaturated: boolean;
  /** Fixed-rate mode: some repeat achieved less than 95% of the rate asked for (the server could not keep up). */
  belowRate: boolean;
}

/**
 * A database scenario's figure for one implementation, split in two: framework (implementation ÷ its language's
 * data-access baseline) × data access (that baseline ÷ the limit), paired, in throughput and CPU per request.
 */
export interface SplitRow {
  scenario: ScenarioName;
  connections: number;
  /** A growth run's data scale (absent in a one-scale run). */
  scale?: number;
  target: string;
  /** The data-access baseline (node-http-prisma, bun-http-prisma) and its runtime's limit (node-http-pg for Python). */
  layer: string;
  limit: string;
  total: Interval;
  framework: Interval;
  dataAccess: Interval;
  totalCpu: Interval;
  frameworkCpu: Interval;
  dataAccessCpu: Interval;
  /** --count instructions: the same three in instructions per request. */
  totalIns?: Interval;
  frameworkIns?: Interval;
  dataAccessIns?: Interval;
  headline: SummaryRow["headline"];
}

/**
 * How a ratio's cells were measured. sequential: one target at a time, paired by repeat with its baseline's round.
 * duet: target and baseline at once, each in its own equal-quota control group with its own load generator.
 */
export type Pairing = "sequential" | "duet";

/**
 * The A/A line of one scenario and connection count: the limit baseline against a second process of itself
 * (`<baseline>~aa`). The true ratio is 1, so its interval is the run's resolving power (±halfWidth).
 */
export interface AaLine {
  scenario: ScenarioName;
  connections: number;
  /** A growth run's data scale (absent in a one-scale run). */
  scale?: number;
  baseline: string;
  twin: string;
  /** Which figure the ratio is in (the run's headline metric for this scenario). */
  metric: SummaryRow["headline"];
  /** twin ÷ baseline, with its 95% interval. */
  ratio: Interval;
  /**
   * ok: the interval contains 1; biased: it excludes 1 (something other than the code told the copies apart: the
   * run fails its precision check); inconclusive: no interval (fewer than two pairs) or the twin failed.
   */
  verdict: "ok" | "biased" | "inconclusive";
}

/** One scale of a growth run: its data, seeded once and measured by every scenario. */
export interface ScaleRecord {
  scale: number;
  rows: Results["rows"];
}

export interface Results {
  schemaVersion: 2;
  startedAt: string;
  finishedAt: string;
  command: string[];
  options: Record<string, unknown>;
  machine: MachineInfo;
  pinning: { taskset: boolean; server: string; loadGenerator: string; postgres: string; harness: string; note: string };
  postgres: { provider: string; version: string; settings: Record<string, string> };
  versions: Record<string, string>;
  seed: number;
  /** The data scale (in a growth run the smallest), and the rows seeded at it. */
  scale: number;
  rows: { users: number; products: number; orders: number };
  /**
   * A growth run (--scale with several values): every scale with its seeded rows, ascending; each scale's cells,
   * verifications, summary and split rows and A/A lines carry it as `scale`. Absent in a one-scale run.
   */
  scales?: ScaleRecord[];
  /**
   * How a growth run measured its scales: interleaved round by round (its scale ratios paired by round), or one
   * after the other (absent in growth runs written before interleaving: one after the other).
   */
  scaleOrder?: "interleaved" | "sequential";
  targets: TargetInfo[];
  scenarios: ScenarioInfo[];
  verification: VerificationRecord[];
  cells: CellResult[];
  summary: SummaryRow[];
  split: SplitRow[];
  /** How ratios were measured (absent in runs written before the option existed: sequential). */
  pairing?: Pairing;
  /** --disturb: the synthetic disturbance the run ran under. */
  disturbance?: { processes: number; burstMs: number[]; gapMs: number[]; seed: number; note: string };
  /** The A/A lines (absent in runs written before they existed). */
  aa?: AaLine[];
  /** The run's resolving power: the widest A/A half-width (NaN when none has an interval). */
  resolution?: number;
  /** --cpus / --memory: the limits every server ran under (all its processes together), and how; absent: unlimited. */
  limits?: { cpus: number | null; memoryBytes: number | null; mechanism: string; note: string };
  /** --rate list or ramp: one fixed-rate cell per scenario, target, connection count and offered rate. */
  curve?: CellResult[];
  /** --profile: per target and scenario, self time by layer, the top functions and the flame graph (inline SVG). */
  profiles?: Array<ProfileSummary & { flame?: string }>;
  /** --slo: each target's capacity at the latency bound per scenario, with its probes (their cells in `probes`). */
  capacity?: CapacityResult[];
  probes?: CellResult[];
}
