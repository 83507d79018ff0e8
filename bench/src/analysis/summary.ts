// The summary: one row per scenario × connections × target (median, min–max, ratios to the baselines) from raw cells.
import { runtimeOf } from "../results/runtime.ts";
import type { CellResult, ScenarioInfo, SummaryRow, TargetInfo, VerificationRecord } from "../results/schema.ts";
import { pairedInterval, ratio, spread } from "../stats.ts";
import { addedInstructions, countedCells, cpuOf, fig, headlineOf, insOf, ratiosTo, rpsOf } from "./ratios.ts";

/** The reference baseline's cells at one scenario and connection count, and the medians other rows are taken to. */
interface Reference {
  cells: CellResult[];
  ok: boolean;
  p50: number;
  p99: number;
  rss: number;
  pg: number;
}

/** One scenario at one connection count: where a row's cells and its baselines' are found. */
interface Place {
  scenario: ScenarioInfo;
  connections: number;
  cells: CellResult[];
  of: (target: string) => CellResult[];
  reference: Reference;
}

/** One row per scenario × connections × target, baselines first (the limit, then the data-access layers). */
export function summarise(
  scenarioInfos: ScenarioInfo[],
  targets: TargetInfo[],
  cells: CellResult[],
  verification: VerificationRecord[],
): SummaryRow[] {
  const allCounts = connectionCounts(cells);
  return scenarioInfos.flatMap((scenario) => {
    // A scenario's own counts: auth-login runs at fewer connections than asked (its maxConnections).
    const own = connectionCounts(cells.filter((c) => c.scenario === scenario.name));
    return (own.length > 0 ? own : allCounts).flatMap((connections) => {
      const of = (target: string) => countedCells(cells, scenario.name, connections, target);
      const place = { scenario, connections, cells, of, reference: referenceOf(of(scenario.baseline)) };
      return rowsAt(place, targets, verification);
    });
  });
}

const connectionCounts = (cells: CellResult[]) => [...new Set(cells.map((c) => c.connections))].sort((a, b) => a - b);

function referenceOf(cells: CellResult[]): Reference {
  const median = (pick: (c: CellResult) => number | undefined) => spread(fig(cells, pick)).median;
  return {
    cells,
    ok: cells.length > 0 && cells.every((c) => !c.failure),
    p50: median((c) => c.outcome?.latency.p50),
    p99: median((c) => c.outcome?.latency.p99),
    rss: median((c) => c.server?.peakRssBytes),
    pg: median((c) => c.postgres?.cpuMicrosPerRequest),
  };
}

/** The rows of one place: every target that was measured, verified or failed there. */
function rowsAt(at: Place, targets: TargetInfo[], verification: VerificationRecord[]): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const target of rowTargets(at.scenario, targets)) {
    const own = at.of(target.name);
    const check = verification.find((v) => v.scenario === at.scenario.name && v.target === target.name);
    if (own.length === 0 && !check && !target.error) continue;
    rows.push(rowOf(at, target, own, failureOf(target, check, own)));
  }
  return rows;
}

/** The targets with a row on a scenario: the reference, its A/A twin, other runtimes' limits, layers, implementations. */
function rowTargets(scenario: ScenarioInfo, targets: TargetInfo[]): TargetInfo[] {
  const runtimeLimits = Object.values(scenario.runtimes ?? {});
  const layers = Object.values(scenario.layers ?? {});
  const rank = (t: TargetInfo) => {
    if (t.role === "implementation") return 4;
    if (t.name === scenario.baseline) return 0;
    if (t.twinOf) return 1;
    return runtimeLimits.includes(t.name) ? 2 : 3;
  };
  const relevant = targets.filter(
    (t) =>
      t.role === "implementation" ||
      t.name === scenario.baseline ||
      t.twinOf === scenario.baseline ||
      runtimeLimits.includes(t.name) ||
      layers.includes(t.name),
  );
  return relevant.sort((a, b) => rank(a) - rank(b));
}

/** Why a row does not count: the target never ran, failed verification, or some repeat failed. */
function failureOf(target: TargetInfo, check: VerificationRecord | undefined, own: CellResult[]): string | undefined {
  if (target.error) return target.error;
  if (check && !check.ok) {
    const first = check.failures[0];
    return `verification failed (${check.failed}/${check.checked}): ${first?.request} → ${first?.problem}`;
  }
  return own.find((c) => c.failure)?.failure;
}

function rowOf(at: Place, target: TargetInfo, own: CellResult[], failure: string | undefined): SummaryRow {
  const counted = failure ? [] : own;
  return {
    scenario: at.scenario.name,
    connections: at.connections,
    target: target.name,
    role: target.role,
    runtime: runtimeOf(target),
    baseline: at.scenario.baseline,
    status: failure ? "failed" : "ok",
    ...(failure ? { failure } : {}),
    repeats: own.length,
    rps: spread(fig(counted, rpsOf)),
    ...ratioFields(at, target, counted),
    ...latencyFields(at.reference, counted),
    non2xx: own.reduce((n, c) => n + (c.outcome?.non2xx ?? 0), 0),
    errors: own.reduce((n, c) => n + (c.outcome?.errors ?? 0), 0),
    ...resourceFields(at, target, counted),
  };
}

/** The ratios to the reference and to the target's own runtime's limit (the same on Node rows), and the headline. */
function ratioFields(at: Place, target: TargetInfo, counted: CellResult[]) {
  const { scenario, connections, cells, reference } = at;
  const none = pairedInterval([], []);
  const ratios = reference.ok
    ? ratiosTo(cells, scenario.name, connections, counted, scenario.baseline)
    : { rps: none, cpu: none, ins: none };
  const runtimeBaseline = scenario.runtimes ? scenario.runtimes[runtimeOf(target)] : scenario.baseline;
  const same = runtimeBaseline === scenario.baseline;
  const runtimeCells = runtimeBaseline === undefined ? [] : at.of(runtimeBaseline);
  const runtimeOk = runtimeCells.length > 0 && runtimeCells.every((c) => !c.failure);
  let runtimeRatios = ratios;
  if (!same) {
    runtimeRatios = runtimeOk
      ? ratiosTo(cells, scenario.name, connections, counted, runtimeBaseline as string)
      : { rps: none, cpu: none, ins: none };
  }
  // One metric for both: throughput unless the load generator saturated beside either baseline.
  const bases = same ? reference.cells : [...reference.cells, ...runtimeCells];
  const headline = headlineOf(counted, bases, ratios.rps, ratios.cpu);
  return {
    rpsRatio: ratios.rps,
    cpuRatio: ratios.cpu,
    ...(runtimeBaseline !== undefined ? { runtimeBaseline } : {}),
    runtimeRpsRatio: runtimeRatios.rps,
    runtimeCpuRatio: runtimeRatios.cpu,
    headline: headline.headline,
    headlineReason: headline.reason,
    ...(counted.some((c) => c.instructions)
      ? {
          insRatio: ratios.ins,
          runtimeInsRatio: runtimeRatios.ins,
          instructionsPerRequest: spread(fig(counted, insOf)),
          insAdded: addedInstructions(counted, same ? reference.cells : runtimeCells),
        }
      : {}),
  };
}

function latencyFields(reference: Reference, counted: CellResult[]) {
  const p50 = spread(fig(counted, (c) => c.outcome?.latency.p50));
  const p99 = spread(fig(counted, (c) => c.outcome?.latency.p99));
  return {
    p50,
    p90: spread(fig(counted, (c) => c.outcome?.latency.p90)),
    p99,
    max: spread(fig(counted, (c) => c.outcome?.latency.max)),
    p50Ratio: reference.ok ? ratio(p50.median, reference.p50) : Number.NaN,
    p99Ratio: reference.ok ? ratio(p99.median, reference.p99) : Number.NaN,
  };
}

/** Memory, CPU and PostgreSQL figures, and the flags that qualify the row (disturbed, saturated, below its rate). */
function resourceFields(at: Place, target: TargetInfo, counted: CellResult[]) {
  const { scenario, reference } = at;
  const rss = spread(fig(counted, (c) => c.server?.peakRssBytes));
  const pg = spread(fig(counted, (c) => c.postgres?.cpuMicrosPerRequest));
  const belowItsRate = (c: CellResult) =>
    c.outcome?.fixedRate !== undefined && c.outcome.requestsPerSecond < 0.95 * c.outcome.fixedRate.target;
  return {
    peakRssBytes: rss,
    peakRssRatio: reference.ok ? ratio(rss.median, reference.rss) : Number.NaN,
    serverCpuCores: spread(fig(counted, (c) => c.server?.cpuCores)),
    cpuMicrosPerRequest: spread(fig(counted, cpuOf)),
    loadGeneratorCpuCores: spread(fig(counted, (c) => c.loadGenerator?.cpuCores)),
    postgresMicrosPerRequest: pg,
    beatsBaselineOnPostgres:
      scenario.kind === "database" &&
      reference.ok &&
      target.name !== scenario.baseline &&
      pg.median < 0.95 * reference.pg,
    disturbed: counted.filter((c) => c.disturbed).length,
    loadGeneratorSaturated: counted.some((c) => c.loadGenerator?.saturated),
    belowRate: counted.some(belowItsRate),
  };
}
