// Did a change make it slower? Absolute requests/s do not travel across runs (another machine, another load); each
// target's ratio to its baseline in the same run does. So NEW's headline ratio is divided by OLD's, the intervals
// combined, and the verdict read against the band both runs' A/A lines can resolve.
import { planText } from "../options/instructions.ts";
import type { InstructionPlan } from "../options/types.ts";
import type { Results, SummaryRow } from "../results/schema.ts";
import { differenceOf, type Interval } from "../stats.ts";
import { bandOf } from "./aa.ts";
import { METRIC, type Metric, ratioIn } from "./ratios.ts";

export { METRIC, type Metric } from "./ratios.ts";

/** A comparison refused before anything is written (exit code 2); `usage`: the command line itself was wrong. */
export class CompareRefused extends Error {
  usage: boolean;
  constructor(message: string, usage = false) {
    super(message);
    this.usage = usage;
  }
}

export interface Run {
  label: "OLD" | "NEW";
  /** The run's directory as shown to the reader. */
  shown: string;
  dir: string;
  results: Results;
}

const isNum = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n);
export const within = (band: number) => (isNum(band) ? `±${(band * 100).toFixed(1)}%` : "–");

export interface Change {
  scenario: string;
  connections: number;
  target: string;
  metric: Metric;
  /** Set when the runs' headline metrics differ (then CPU per request is compared in both). */
  note?: string;
  old: Interval;
  new: Interval;
  /** NEW's ratio ÷ OLD's, with both runs' intervals combined. */
  change: Interval;
  /** Differences within ±band cannot be told apart by these two runs. */
  band: number;
  verdict: string;
}

export interface Comparison {
  old: Run;
  new: Run;
  /** The band over the whole comparison: both runs' widest A/A half-widths combined. */
  band: number;
  changes: Change[];
  /** Targets and scenarios not compared, and why (only in one run, failed). */
  notCompared: string[];
  warnings: string[];
}

/** NEW ÷ OLD, the two intervals' half-widths added in quadrature on the log scale (NaN where either has none). */
function changeOf(old: Interval, now: Interval): Interval {
  const logHalf = (i: Interval) => (isNum(i.high) && isNum(i.value) ? Math.log(i.high / i.value) : Number.NaN);
  const value = isNum(old.value) && isNum(now.value) ? now.value / old.value : Number.NaN;
  const half = Math.hypot(logHalf(old), logHalf(now));
  return {
    value,
    low: value * Math.exp(-half),
    high: value * Math.exp(half),
    halfWidth: Math.expm1(half),
    n: Math.min(old.n, now.n),
  };
}

/** What one run can resolve (log scale): its band, from its A/A line at this scenario and connections, else its widest. */
function resolving(r: Results, scenario?: string, connections?: number): number {
  const line = r.aa?.find((l) => l.scenario === scenario && l.connections === connections && isNum(l.ratio.halfWidth));
  return Math.log1p(bandOf(line ? { ...r, resolution: line.ratio.halfWidth } : r));
}

/** The band under which two runs cannot tell a difference: both runs' resolving power, added in quadrature. */
const bandOfBoth = (old: Results, now: Results, scenario?: string, connections?: number) =>
  Math.expm1(Math.hypot(resolving(old, scenario, connections), resolving(now, scenario, connections)));

function verdictOf(change: Interval, band: number): string {
  const difference = differenceOf(change, band);
  if (difference === "even") return `no change (within ${within(band)})`;
  return { higher: "faster", lower: "slower", "can't tell": "can't tell" }[difference];
}

/** Rows a comparison can take: every target's ratio to its baseline, not the baseline's own row nor its A/A twin. */
function comparable(r: Results) {
  const twins = new Set(r.targets.filter((t) => t.twinOf).map((t) => t.name));
  const rows = r.summary.filter((s) => s.target !== s.baseline && !twins.has(s.target));
  return new Map(rows.map((s) => [`${s.target} on ${s.scenario} at ${s.connections} connections`, s]));
}

/** A count run's plan (its warm-up and rounds move a cold process's count), or a wall-clock run's cell length. */
function measuredBy(r: Results): string {
  const plan = r.options.instructions as InstructionPlan | null | undefined;
  return plan ? `instructions, ${planText(plan)}` : `requests/s, ${r.options.durationS} s`;
}

/** How a run was measured, as far as it moves ratios: side by side in the header, a warning where the runs differ. */
export const SETUP: Array<[string, (r: Results) => string]> = [
  ["machine", (r) => `${r.machine.cpuModel}, ${r.machine.logicalCpus} logical CPUs`],
  ["Node", (r) => r.versions.node ?? r.machine.node],
  ["pairing", (r) => r.pairing ?? "sequential"],
  ["connections", (r) => String(r.options.connections)],
  ["measured", measuredBy],
];

/** What differs between the runs' setups that moves ratios too, and A/A lines that did not hold. */
function warningsOf(old: Run, now: Run): string[] {
  const warnings = SETUP.filter(([, fact]) => fact(old.results) !== fact(now.results)).map(
    ([what, fact]) => `different ${what}: OLD ${fact(old.results)}, NEW ${fact(now.results)}`,
  );
  for (const run of [old, now]) {
    for (const line of run.results.aa ?? []) {
      if (line.verdict !== "biased") continue;
      const where = `${run.label}'s A/A line on ${line.scenario} (${line.connections} connections)`;
      warnings.push(`${where} excludes 1: something other than the code told two copies of ${line.baseline} apart`);
    }
  }
  return warnings;
}

export function compareRuns(old: Run, now: Run): Comparison {
  refuseDisjoint(old.results, now.results);
  refuseMixedCounts(old.results, now.results);
  const [before, after] = [comparable(old.results), comparable(now.results)];
  const changes: Change[] = [];
  const notCompared: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const [o, n] = [before.get(key), after.get(key)];
    const failed = [o, n].find((row) => row?.status === "failed");
    if (o && n && !failed) changes.push(changeIn(old.results, now.results, o, n));
    else notCompared.push(`${key}: ${whyNot(o, n, failed)}`);
  }
  return {
    old,
    new: now,
    band: bandOfBoth(old.results, now.results),
    changes,
    notCompared,
    warnings: warningsOf(old, now),
  };
}

/** A run of instruction counts has no requests/s or CPU to set against a wall-clock run's, nor the reverse. */
function refuseMixedCounts(old: Results, now: Results) {
  const counts = (r: Results) => Boolean(r.options.instructions);
  if (counts(old) === counts(now)) return;
  const kind = (r: Results) => (counts(r) ? "counts instructions (--count instructions)" : "measures requests/s");
  throw new CompareRefused(`OLD ${kind(old)} and NEW ${kind(now)}: compare two runs of the same kind`);
}

function refuseDisjoint(old: Results, now: Results) {
  const names = (r: Results) => r.scenarios.map((s) => s.name);
  if (names(old).some((s) => names(now).includes(s))) return;
  const both = `OLD: ${names(old).join(", ")}; NEW: ${names(now).join(", ")}`;
  throw new CompareRefused(`OLD and NEW have no scenario in common (${both}): nothing to compare`);
}

function whyNot(o: SummaryRow | undefined, n: SummaryRow | undefined, failed: SummaryRow | undefined): string {
  if (!o) return "only in NEW";
  if (!n) return "only in OLD";
  return `failed in ${failed === o ? "OLD" : "NEW"}: ${failed?.failure ?? "failed"}`;
}

/** One row's change, in the headline metric both runs share (CPU per request where their headlines differ). */
function changeIn(old: Results, now: Results, o: SummaryRow, n: SummaryRow): Change {
  const metric = o.headline === n.headline ? n.headline : "cpu-per-request";
  const change = changeOf(ratioIn(o, metric), ratioIn(n, metric));
  const band = bandOfBoth(old, now, n.scenario, n.connections);
  const note = `CPU/request in both (the headline: ${METRIC[o.headline]} in OLD, ${METRIC[n.headline]} in NEW)`;
  return {
    scenario: n.scenario,
    connections: n.connections,
    target: n.target,
    metric,
    ...(o.headline !== n.headline ? { note } : {}),
    old: ratioIn(o, metric),
    new: ratioIn(n, metric),
    change,
    band,
    verdict: verdictOf(change, band),
  };
}
