// The shape of results.json, and the summary (median, min–max, ratio to the baseline) computed from raw cells.
// Pure functions over plain data, so that the report and its tests need no running server.
import type { LoadOutcome } from "./load/outcome.ts";
import type { MachineInfo } from "./proc.ts";
import type { ScenarioKind, ScenarioName } from "./scenarios.ts";
import { pairedRatios, ratio, type Spread, spread } from "./stats.ts";
import type { Verification } from "./verify.ts";

/** The load generator's CPU (fraction of one core) from which a figure is flagged as possibly capped by it. */
export const LOADGEN_SATURATION = 0.9;

export interface TargetInfo {
  name: string;
  role: "implementation" | "baseline";
  framework: string;
  variant: string;
  language: string;
  /** For a baseline: the scenario kind it is the baseline of. */
  baselineFor?: ScenarioKind;
  build?: { ms: number; ok: boolean; error?: string };
  startupMs?: number;
  idleRssBytes?: number;
  /** Why it could not be measured at all (build or start-up failure). */
  error?: string;
  versions: Record<string, string>;
}

export interface ScenarioInfo {
  name: ScenarioName;
  title: string;
  kind: ScenarioKind;
  baseline: string;
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
  /** Set when the cell does not count: unexpected non-2xx, socket errors, a crash. */
  failure?: string;
  /** Something to know that is not a failure (a smoke cell that saw no answer in its second). */
  note?: string;
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
  baseline: string;
  /** ok: every repeat counted; failed: verification failed or some repeat failed (then nothing is reported). */
  status: "ok" | "failed";
  failure?: string;
  repeats: number;
  rps: Spread;
  /** Requests/s over the baseline's, paired by repeat. */
  rpsRatio: Spread;
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
  cpuPerRequestRatio: number;
  loadGeneratorCpuCores: Spread;
  /** PostgreSQL CPU time per response (when PostgreSQL runs on this machine). */
  postgresMicrosPerRequest: Spread;
  /** The load generator used ≥ LOADGEN_SATURATION of a core in some repeat: the figure may be its limit. */
  loadGeneratorSaturated: boolean;
  /** Fixed-rate mode: some repeat achieved less than 95% of the rate asked for (the server could not keep up). */
  belowRate: boolean;
}

export interface Results {
  schemaVersion: 1;
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
}

const fig = (cells: CellResult[], pick: (c: CellResult) => number | undefined) =>
  cells.map((c) => pick(c) ?? Number.NaN);

/** One row per scenario × connections × target, baselines first. */
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
      const of = (target: string) =>
        cells
          .filter((c) => c.scenario === scenario.name && c.connections === connections && c.target === target)
          .sort((a, b) => a.repeat - b.repeat);
      const baselineCells = of(scenario.baseline);
      const baselineOk = baselineCells.length > 0 && baselineCells.every((c) => !c.failure);
      const base = {
        rps: fig(baselineCells, (c) => c.outcome?.requestsPerSecond),
        p50: spread(fig(baselineCells, (c) => c.outcome?.latency.p50)).median,
        p99: spread(fig(baselineCells, (c) => c.outcome?.latency.p99)).median,
        rss: spread(fig(baselineCells, (c) => c.server?.peakRssBytes)).median,
        cpuPerReq: spread(fig(baselineCells, (c) => c.server?.cpuMicrosPerRequest)).median,
      };
      const relevant = targets.filter((t) => t.role === "implementation" || t.name === scenario.baseline);
      const ordered = [...relevant].sort(
        (a, b) => Number(a.role === "implementation") - Number(b.role === "implementation"),
      );
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
        const rps = fig(counted, (c) => c.outcome?.requestsPerSecond);
        const p50 = spread(fig(counted, (c) => c.outcome?.latency.p50));
        const p99 = spread(fig(counted, (c) => c.outcome?.latency.p99));
        const rss = spread(fig(counted, (c) => c.server?.peakRssBytes));
        const cpuPerReq = spread(fig(counted, (c) => c.server?.cpuMicrosPerRequest));
        rows.push({
          scenario: scenario.name,
          connections,
          target: target.name,
          role: target.role,
          baseline: scenario.baseline,
          status: failure ? "failed" : "ok",
          ...(failure ? { failure } : {}),
          repeats: own.length,
          rps: spread(rps),
          rpsRatio: baselineOk ? pairedRatios(rps, base.rps) : spread([]),
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
          cpuMicrosPerRequest: cpuPerReq,
          cpuPerRequestRatio: baselineOk ? ratio(cpuPerReq.median, base.cpuPerReq) : Number.NaN,
          loadGeneratorCpuCores: spread(fig(counted, (c) => c.loadGenerator?.cpuCores)),
          postgresMicrosPerRequest: spread(fig(counted, (c) => c.postgres?.cpuMicrosPerRequest)),
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
