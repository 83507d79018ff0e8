// The shape of results.json, and the summary (median, min–max, ratio to the baseline) computed from raw cells.
// Pure functions over plain data, so that the report and its tests need no running server.
import type { LoadOutcome } from "./load/outcome.ts";
import type { MachineInfo } from "./proc.ts";
import type { ProfileSummary } from "./profile/recorder.ts";
import type { ScenarioKind, ScenarioName } from "./scenarios.ts";
import { type Interval, pairedInterval, productInterval, ratio, type Spread, spread } from "./stats.ts";
import { inSqlMode, SQL_SUFFIX } from "./targets.ts";
import type { Verification } from "./verify.ts";

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

/** The load generator's CPU (fraction of one core) from which a figure is flagged as possibly capped by it. */
export const LOADGEN_SATURATION = 0.9;
/**
 * CPU (in cores) that other processes may use during a measured run before the cell counts as disturbed: on a
 * 2-core machine a quarter of a core of other work moves throughput by more than the 5% a ratio is asked to hold.
 */
export const DISTURBANCE_CORES = 0.25;

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
   * Per runtime of the measured rows, its own limit baseline (`node` → node-http, `bun` → bun-http, `deno` →
   * deno-http; bun-http-pg on the database scenarios): each row's `runtimeRpsRatio` is taken to its runtime's.
   * Absent in runs written before runtimes had baselines (then every row's is `baseline`).
   */
  runtimes?: Partial<Record<string, string>>;
  /**
   * Per implementation language and runtime (`typescript`, `python`; `typescript@bun` for Bun rows; a `[sql]`
   * suffix for implementations in core's sql data-access mode), the baseline that serves it through the
   * implementations' data access.
   */
  layers?: Partial<Record<string, string>>;
}

export interface CellResult {
  scenario: ScenarioName;
  connections: number;
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
  /**
   * duet: the pair this cell was measured in — both cells of a pair share `id` and ran at the same time — and the
   * target on the other side.
   */
  pair?: { id: string; with: string };
  /**
   * duet: the cell's control group over its measured part, from the kernel's own accounting (cpuacct, in
   * nanoseconds): the server and, where PostgreSQL is a local process, the database backends serving it. `cpuSeconds`
   * / completed requests is the cell's CPU per request; `usedShare` is that CPU over the quota's (1 = saturated).
   */
  group?: { cpuSeconds: number; quotaCores: number; usedShare: number; backends: number; cpu?: string };
  /** Something to know that is not a failure (a smoke cell that saw no answer in its second). */
  note?: string;
  /**
   * The process id of the server measured, when the bench started it. With --restart cell every cell has a process
   * of its own (started, settled, measured, stopped); with --restart run a target's cells share one.
   */
  pid?: number;
  /**
   * --restart cell: the start-up of this cell's fresh process, from spawn to its first answer to GET /health, in
   * milliseconds (the claims' start-up ratios pair these by repeat, so that they get an interval).
   */
  startupMs?: number;
}

export interface VerificationRecord extends Verification {
  scenario: ScenarioName;
  target: string;
}

export interface SummaryRow {
  scenario: ScenarioName;
  connections: number;
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
  /**
   * The target's own runtime's limit baseline (node-http for Node rows, bun-http / deno-http, bun-http-pg), absent
   * where its runtime has none here (Deno on the database scenarios, Python).
   */
  runtimeBaseline?: string;
  /**
   * The same two ratios to `runtimeBaseline`: the framework's cost on its own runtime, where `rpsRatio`/`cpuRatio`
   * (to node-http / node-http-pg) also carry what the runtime changes. Equal to them on Node rows; no interval
   * (n = 0) without a runtime baseline.
   */
  runtimeRpsRatio: Interval;
  runtimeCpuRatio: Interval;
  /**
   * Which ratio to quote: throughput, unless the load generator used ≥ LOADGEN_SATURATION of its core in some
   * repeat of this target or its baseline (then requests/s is the load generator's limit and CPU per request,
   * which does not depend on it, is the figure); cpu-per-request also when throughput cannot be had.
   */
  headline: "throughput" | "cpu-per-request";
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
  /**
   * This implementation needed less PostgreSQL CPU per request than the limit baseline (by more than 5%): the
   * baseline is then not the cheapest way to answer, and ratios to it flatter the implementation.
   */
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
 * data-access baseline) times data access (that baseline ÷ the limit baseline). Both are paired ratios with 95%
 * intervals, in throughput and in server CPU per request (baseline ÷ implementation: below 1 is costlier).
 */
export interface SplitRow {
  scenario: ScenarioName;
  connections: number;
  target: string;
  /**
   * The data-access baseline (node-http-prisma for Node, bun-http-prisma for Bun) and the limit of the same runtime
   * (node-http-pg, bun-http-pg; node-http-pg for Python, which has no raw limit of its own).
   */
  layer: string;
  limit: string;
  total: Interval;
  framework: Interval;
  dataAccess: Interval;
  totalCpu: Interval;
  frameworkCpu: Interval;
  dataAccessCpu: Interval;
  headline: SummaryRow["headline"];
}

/**
 * How the cells of a ratio were measured. sequential: one target at a time, paired repeat by repeat with its
 * baseline measured in the same round. duet: the target and its baseline at the same time, each in its own
 * control group with the same CPU quota and its own load generator; each pair is one cell of each (`pair`).
 */
export type Pairing = "sequential" | "duet";

/**
 * The A/A line of one scenario and connection count: the limit baseline measured against a second process of
 * itself (its twin, named `<baseline>~aa`), through the same path as every target. The true ratio is 1, so its
 * interval is this run's resolving power: differences under ±halfWidth cannot be told apart here.
 */
export interface AaLine {
  scenario: ScenarioName;
  connections: number;
  baseline: string;
  twin: string;
  /** Which figure the ratio is in (the run's headline metric for this scenario). */
  metric: SummaryRow["headline"];
  /** twin ÷ baseline, with its 95% interval. */
  ratio: Interval;
  /**
   * ok: the interval contains 1; biased: it excludes 1 (the run fails its precision check: something other than
   * the code told the two copies apart); inconclusive: no interval (fewer than two pairs) or the twin failed.
   */
  verdict: "ok" | "biased" | "inconclusive";
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
  scale: number;
  rows: { users: number; products: number; orders: number };
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
  /**
   * The run's resolving power: the widest A/A half-width over its scenarios (NaN when none has an interval);
   * differences smaller than this cannot be told from noise in this run.
   */
  resolution?: number;
  /**
   * --cpus / --memory: the limits every server ran under (all its processes together), and how; absent when
   * the servers ran unlimited.
   */
  limits?: { cpus: number | null; memoryBytes: number | null; mechanism: string; note: string };
  /** --rate list or ramp: one fixed-rate cell per scenario, target, connection count and offered rate. */
  curve?: CellResult[];
  /** --profile: per target and scenario, self time by layer, the top functions and the flame graph (inline SVG). */
  profiles?: Array<ProfileSummary & { flame?: string }>;
  /** --slo: each target's capacity at the latency bound per scenario, with its probes (their cells in `probes`). */
  capacity?: CapacityResult[];
  probes?: CellResult[];
}

/** Implementations in core's sql data-access mode (DATA_ACCESS=sql) are measured as rows named `NAME[sql]`. */

/** What runs a target: its recorded runtime, or (runs written before runtimes were recorded) Node or Python; `other` for a --target server. */
export const runtimeOf = (target: { language: string; runtime?: string }) =>
  target.runtime ?? (target.language === "python" ? "python" : target.language === "other" ? "other" : "node");

/**
 * The key of ScenarioInfo.layers a target's data-access baseline is found under: its language, `@runtime` for a
 * runtime other than the language's own (Node, Python), `[sql]` in sql mode.
 */
export const layerKey = (target: { name: string; language: string; runtime?: string }) => {
  const runtime = runtimeOf(target);
  const on = runtime === "node" || runtime === "python" ? "" : `@${runtime}`;
  return `${target.language}${on}${inSqlMode(target.name) ? SQL_SUFFIX : ""}`;
};

const fig = (cells: CellResult[], pick: (c: CellResult) => number | undefined) =>
  cells.map((c) => pick(c) ?? Number.NaN);

/** The cells that count for one target: discarded (replaced) runs left out, one per repeat, in repeat order. */
export function countedCells(
  cells: readonly CellResult[],
  scenario: ScenarioName,
  connections: number,
  target: string,
): CellResult[] {
  return cells
    .filter((c) => c.scenario === scenario && c.connections === connections && c.target === target && !c.discarded)
    .sort((a, b) => a.repeat - b.repeat);
}

/**
 * Values of two targets' cells paired: duet cells with the cell they ran beside (same `pair.id`), sequential ones
 * by repeat (only repeats both have).
 */
function paired(a: CellResult[], b: CellResult[], pick: (c: CellResult) => number | undefined) {
  const values: number[] = [];
  const baselines: number[] = [];
  for (const cell of a) {
    const other = cell.pair
      ? b.find((c) => c.pair?.id === cell.pair?.id)
      : b.find((c) => !c.pair && c.repeat === cell.repeat);
    if (!other) continue;
    values.push(pick(cell) ?? Number.NaN);
    baselines.push(pick(other) ?? Number.NaN);
  }
  return { values, baselines };
}

const rpsOf = (c: CellResult) => c.outcome?.requestsPerSecond;
const cpuOf = (c: CellResult) => c.server?.cpuMicrosPerRequest;
/**
 * The CPU per request a ratio compares: in duet, the control group's (the server and the PostgreSQL backends
 * serving it, from the kernel's accounting); otherwise the server's process tree's.
 */
const ratioCpuOf = (c: CellResult) =>
  c.group && c.outcome?.completed ? (c.group.cpuSeconds * 1e6) / c.outcome.completed : cpuOf(c);

/** Throughput ratio (target ÷ baseline) and CPU-per-request ratio (baseline ÷ target), paired (see paired()). */
export function ratiosOf(own: CellResult[], base: CellResult[]) {
  const rps = paired(own, base, rpsOf);
  const cpu = paired(own, base, ratioCpuOf);
  return { rps: pairedInterval(rps.values, rps.baselines), cpu: pairedInterval(cpu.baselines, cpu.values) };
}

/**
 * A target's ratios to a baseline. Directly where they were measured together (sequential rounds; a duet pair);
 * in duet, a target paired with another baseline (an implementation with its data-access baseline, a runtime's
 * baseline with Node's) reaches the baseline through it: implementation ÷ layer × layer ÷ limit, each from its own
 * pairs, the intervals combined — through as many steps as the pairs take (at most three).
 */
export function ratiosTo(
  cells: readonly CellResult[],
  scenario: ScenarioName,
  connections: number,
  own: CellResult[],
  baseline: string,
  steps = 3,
): ReturnType<typeof ratiosOf> {
  const base = countedCells(cells, scenario, connections, baseline);
  const direct = ratiosOf(own, base);
  const via = own.find((c) => c.pair && c.pair.with !== baseline)?.pair?.with;
  if (direct.rps.n > 0 || direct.cpu.n > 0 || !via || steps <= 1) return direct;
  const middle = countedCells(cells, scenario, connections, via);
  const first = ratiosOf(own, middle);
  const second = ratiosTo(cells, scenario, connections, middle, baseline, steps - 1);
  return { rps: productInterval(first.rps, second.rps), cpu: productInterval(first.cpu, second.cpu) };
}

/** Which ratio to quote for a target against its baseline, and why. */
export function headlineOf(own: CellResult[], base: CellResult[], rps: Interval, cpu: Interval) {
  if (own.some((c) => c.group) && Number.isFinite(cpu.value)) {
    return {
      headline: "cpu-per-request" as const,
      reason: "duet: requests per CPU-second of each side's control group, measured at the same time",
    };
  }
  const saturated = [...own, ...base].some((c) => c.loadGenerator?.saturated);
  if (saturated && Number.isFinite(cpu.value)) {
    return {
      headline: "cpu-per-request" as const,
      reason: `the load generator used ≥ ${Math.round(LOADGEN_SATURATION * 100)}% of its core: requests/s is its limit`,
    };
  }
  if (!Number.isFinite(rps.value) && Number.isFinite(cpu.value)) {
    return { headline: "cpu-per-request" as const, reason: "no throughput ratio" };
  }
  return {
    headline: "throughput" as const,
    reason: saturated
      ? "load generator saturated, but no CPU figures (remote server)"
      : "load generator below saturation",
  };
}

/** One row per scenario × connections × target, baselines first (the limit, then the data-access layers). */
export function summarise(
  scenarioInfos: ScenarioInfo[],
  targets: TargetInfo[],
  cells: CellResult[],
  verification: VerificationRecord[],
): SummaryRow[] {
  const rows: SummaryRow[] = [];
  const countsOf = (these: CellResult[]) => [...new Set(these.map((c) => c.connections))].sort((a, b) => a - b);
  const allCounts = countsOf(cells);
  for (const scenario of scenarioInfos) {
    // A scenario's own counts: auth-login runs at fewer connections than asked (its maxConnections).
    const own = countsOf(cells.filter((c) => c.scenario === scenario.name));
    for (const connections of own.length > 0 ? own : allCounts) {
      const of = (target: string) => countedCells(cells, scenario.name, connections, target);
      const baselineCells = of(scenario.baseline);
      const baselineOk = baselineCells.length > 0 && baselineCells.every((c) => !c.failure);
      const base = {
        p50: spread(fig(baselineCells, (c) => c.outcome?.latency.p50)).median,
        p99: spread(fig(baselineCells, (c) => c.outcome?.latency.p99)).median,
        rss: spread(fig(baselineCells, (c) => c.server?.peakRssBytes)).median,
        pg: spread(fig(baselineCells, (c) => c.postgres?.cpuMicrosPerRequest)).median,
      };
      const runtimeLimits = Object.values(scenario.runtimes ?? {});
      const relevant = targets.filter(
        (t) =>
          t.role === "implementation" ||
          t.name === scenario.baseline ||
          t.twinOf === scenario.baseline ||
          runtimeLimits.includes(t.name) ||
          Object.values(scenario.layers ?? {}).includes(t.name),
      );
      // The reference, its A/A twin, the other runtimes' limits, the data-access layers, then the implementations.
      const rank = (t: TargetInfo) =>
        t.role === "implementation"
          ? 4
          : t.name === scenario.baseline
            ? 0
            : t.twinOf
              ? 1
              : runtimeLimits.includes(t.name)
                ? 2
                : 3;
      const ordered = [...relevant].sort((a, b) => rank(a) - rank(b));
      for (const target of ordered) {
        const own = of(target.name);
        const check = verification.find((v) => v.scenario === scenario.name && v.target === target.name);
        if (own.length === 0 && !check && !target.error) continue;
        let failure: string | undefined;
        if (target.error) failure = target.error;
        else if (check && !check.ok) {
          failure = `verification failed (${check.failed}/${check.checked}): ${check.failures[0]?.request} → ${check.failures[0]?.problem}`;
        } else failure = own.find((c) => c.failure)?.failure;
        const counted = failure ? [] : own;
        const rps = fig(counted, rpsOf);
        const p50 = spread(fig(counted, (c) => c.outcome?.latency.p50));
        const p99 = spread(fig(counted, (c) => c.outcome?.latency.p99));
        const rss = spread(fig(counted, (c) => c.server?.peakRssBytes));
        const pg = spread(fig(counted, (c) => c.postgres?.cpuMicrosPerRequest));
        const none = pairedInterval([], []);
        const ratios = baselineOk
          ? ratiosTo(cells, scenario.name, connections, counted, scenario.baseline)
          : { rps: none, cpu: none };
        // The second pair of ratios, to the target's own runtime's limit (the same as the first on Node rows).
        const runtime = runtimeOf(target);
        const runtimeBaseline = scenario.runtimes ? scenario.runtimes[runtime] : scenario.baseline;
        const runtimeCells = runtimeBaseline === undefined ? [] : of(runtimeBaseline);
        const runtimeRatios =
          runtimeBaseline === scenario.baseline
            ? ratios
            : runtimeCells.length > 0 && runtimeCells.every((c) => !c.failure)
              ? ratiosTo(cells, scenario.name, connections, counted, runtimeBaseline as string)
              : { rps: none, cpu: none };
        // One metric for both: throughput unless the load generator saturated beside either baseline.
        const headline = headlineOf(
          counted,
          runtimeBaseline === scenario.baseline ? baselineCells : [...baselineCells, ...runtimeCells],
          ratios.rps,
          ratios.cpu,
        );
        rows.push({
          scenario: scenario.name,
          connections,
          target: target.name,
          role: target.role,
          runtime,
          baseline: scenario.baseline,
          status: failure ? "failed" : "ok",
          ...(failure ? { failure } : {}),
          repeats: own.length,
          rps: spread(rps),
          rpsRatio: ratios.rps,
          cpuRatio: ratios.cpu,
          ...(runtimeBaseline !== undefined ? { runtimeBaseline } : {}),
          runtimeRpsRatio: runtimeRatios.rps,
          runtimeCpuRatio: runtimeRatios.cpu,
          headline: headline.headline,
          headlineReason: headline.reason,
          p50,
          p90: spread(fig(counted, (c) => c.outcome?.latency.p90)),
          p99,
          max: spread(fig(counted, (c) => c.outcome?.latency.max)),
          p50Ratio: baselineOk ? ratio(p50.median, base.p50) : Number.NaN,
          p99Ratio: baselineOk ? ratio(p99.median, base.p99) : Number.NaN,
          non2xx: own.reduce((n, c) => n + (c.outcome?.non2xx ?? 0), 0),
          errors: own.reduce((n, c) => n + (c.outcome?.errors ?? 0), 0),
          peakRssBytes: rss,
          peakRssRatio: baselineOk ? ratio(rss.median, base.rss) : Number.NaN,
          serverCpuCores: spread(fig(counted, (c) => c.server?.cpuCores)),
          cpuMicrosPerRequest: spread(fig(counted, cpuOf)),
          loadGeneratorCpuCores: spread(fig(counted, (c) => c.loadGenerator?.cpuCores)),
          postgresMicrosPerRequest: pg,
          beatsBaselineOnPostgres:
            scenario.kind === "database" &&
            baselineOk &&
            target.name !== scenario.baseline &&
            pg.median < 0.95 * base.pg,
          disturbed: counted.filter((c) => c.disturbed).length,
          loadGeneratorSaturated: counted.some((c) => c.loadGenerator?.saturated),
          belowRate: counted.some(
            (c) =>
              c.outcome?.fixedRate !== undefined && c.outcome.requestsPerSecond < 0.95 * c.outcome.fixedRate.target,
          ),
        });
      }
    }
  }
  return rows;
}

/**
 * The A/A lines: each limit baseline's twin against it, per scenario and connection count, in the headline
 * metric of the twin's row.
 */
export function aaLines(summary: SummaryRow[], targets: TargetInfo[]): AaLine[] {
  const lines: AaLine[] = [];
  for (const row of summary) {
    const twin = targets.find((t) => t.name === row.target && t.twinOf === row.baseline);
    if (!twin) continue;
    const metric = row.headline;
    const ratio = metric === "cpu-per-request" ? row.cpuRatio : row.rpsRatio;
    const verdict =
      row.status !== "ok" || !Number.isFinite(ratio.low) || !Number.isFinite(ratio.high)
        ? "inconclusive"
        : ratio.low <= 1 && ratio.high >= 1
          ? "ok"
          : "biased";
    lines.push({
      scenario: row.scenario,
      connections: row.connections,
      baseline: row.baseline,
      twin: twin.name,
      metric,
      ratio,
      verdict,
    });
  }
  return lines;
}

/** The run's resolving power: the widest A/A half-width (NaN when no A/A line has an interval). */
export function resolutionOf(lines: AaLine[]): number {
  const widths = lines.map((l) => l.ratio.halfWidth).filter(Number.isFinite);
  return widths.length > 0 ? Math.max(...widths) : Number.NaN;
}

/** The framework / data-access split of every implementation on every database scenario that has a layer for it. */
export function splitCosts(
  scenarioInfos: ScenarioInfo[],
  targets: TargetInfo[],
  summary: SummaryRow[],
  cells: CellResult[],
): SplitRow[] {
  const split: SplitRow[] = [];
  for (const scenario of scenarioInfos) {
    if (!scenario.layers) continue;
    for (const row of summary) {
      if (row.scenario !== scenario.name || row.role !== "implementation" || row.status !== "ok") continue;
      const target = targets.find((t) => t.name === row.target);
      const layer = target ? scenario.layers[layerKey(target)] : undefined;
      const layerRow = summary.find(
        (s) => s.scenario === scenario.name && s.connections === row.connections && s.target === layer,
      );
      if (!layer || layerRow?.status !== "ok") continue;
      const of = (target: string) => countedCells(cells, scenario.name, row.connections, target);
      const framework = ratiosOf(of(row.target), of(layer));
      // Within one runtime: the limit is the row's own runtime's (bun-http-pg for Bun rows), where it has one.
      const own = row.runtimeBaseline !== undefined && row.runtimeBaseline === layerRow.runtimeBaseline;
      const limit = own ? (row.runtimeBaseline as string) : scenario.baseline;
      const headline = headlineOf(of(row.target), [...of(layer), ...of(limit)], row.rpsRatio, row.cpuRatio);
      split.push({
        scenario: scenario.name,
        connections: row.connections,
        target: row.target,
        layer,
        limit,
        total: own ? row.runtimeRpsRatio : row.rpsRatio,
        framework: framework.rps,
        dataAccess: own ? layerRow.runtimeRpsRatio : layerRow.rpsRatio,
        totalCpu: own ? row.runtimeCpuRatio : row.cpuRatio,
        frameworkCpu: framework.cpu,
        dataAccessCpu: own ? layerRow.runtimeCpuRatio : layerRow.cpuRatio,
        headline: headline.headline,
      });
    }
  }
  return split;
}
