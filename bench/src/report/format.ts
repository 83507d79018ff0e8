// Number formatting and table cells shared by the Markdown and HTML reports.
import { bandOf } from "../analysis/aa.ts";
import { METRIC, ratioIn } from "../analysis/ratios.ts";
import type { AaLine, Results, SplitRow, SummaryRow, TargetInfo } from "../results/schema.ts";
import { type Difference, differenceOf, type Interval, median, type Spread } from "../stats.ts";

export { bandOf };

export const isNum = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n);

/** 12345 → "12,345"; 12.3 → "12.3"; 0.123 → "0.12". */
export function num(n: number | undefined): string {
  if (!isNum(n)) return "–";
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export const ms = (n: number | undefined) => (isNum(n) ? num(n) : "–");
export const mb = (bytes: number | undefined) => (isNum(bytes) ? `${Math.round(bytes / 1048576)}` : "–");
export const pct = (cores: number | undefined) => (isNum(cores) ? `${Math.round(cores * 100)}%` : "–");
export const times = (r: number | undefined) => (isNum(r) ? `${r.toFixed(2)}×` : "–");

/** "12,345 (12,001–12,800)", or just the median when there was one value. */
export function withRange(s: Spread, f: (n: number) => string = num): string {
  if (s.n === 0) return "–";
  if (s.n === 1 || s.min === s.max) return f(s.median);
  return `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
}

export function ratioWithRange(s: Spread): string {
  if (s.n === 0) return "–";
  if (s.n === 1 || s.min.toFixed(2) === s.max.toFixed(2)) return times(s.median);
  return `${times(s.median)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}

/** "0.52× (0.50–0.55)" — a ratio with its 95% confidence interval; just the ratio from a single pair. */
export function ratioWithInterval(i: Interval): string {
  if (i.n === 0 || !isNum(i.value)) return "–";
  if (!isNum(i.low) || !isNum(i.high)) return `${times(i.value)} (n=1)`;
  return `${times(i.value)} (${i.low.toFixed(2)}–${i.high.toFixed(2)})`;
}

/** "±4.8%" — the interval's relative half-width. */
export const precisionOf = (i: Interval) =>
  !isNum(i.halfWidth) ? "–" : i.halfWidth >= 10 ? ">±999%" : `±${(i.halfWidth * 100).toFixed(1)}%`;

/** Text as HTML/SVG text or attribute content. */
export const esc = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/** Text as one markdown table cell. */
export const escapeCell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/**
 * A row's ratio cells against its baseline, throughput, CPU per request, then instructions per request (`1.00×` on
 * the baseline's own row); `emphasise` marks the one to quote.
 */
export function ratioCells(row: SummaryRow, emphasise: (text: string) => string): [string, string, string] {
  if (row.target === row.baseline) return ["1.00×", "1.00×", "1.00×"];
  const mark = (which: SummaryRow["headline"], text: string) => (row.headline === which ? emphasise(text) : text);
  return [
    mark("throughput", ratioWithInterval(row.rpsRatio)),
    mark("cpu-per-request", ratioWithInterval(row.cpuRatio)),
    mark("instructions-per-request", ratioWithInterval(ratioIn(row, "instructions-per-request"))),
  ];
}

/**
 * A row's ratio to its own runtime's raw baseline in its headline metric: the framework's cost on its runtime, without
 * what the runtime changes (which ratioCells' carry). `1.00×` on that baseline's row; `–` where there is none.
 */
export function runtimeRatioCell(row: SummaryRow): string {
  // Runs written before runtimes had baselines: every row's was the reference.
  const baseline = row.runtimeBaseline ?? (row.runtimeRpsRatio === undefined ? row.baseline : undefined);
  if (baseline === undefined) return "–";
  if (row.target === baseline) return "1.00×";
  const own = { rpsRatio: row.runtimeRpsRatio, cpuRatio: row.runtimeCpuRatio, insRatio: row.runtimeInsRatio };
  const ratio = ratioIn(own, row.headline) ?? ratioIn(row, row.headline);
  const text = ratioWithInterval(ratio);
  const unit = { throughput: "", "cpu-per-request": " CPU/req", "instructions-per-request": " instructions/req" };
  return text === "–" ? text : `${text}${unit[row.headline]}`;
}

/** "bun-http (bun), deno-http (deno)": the scenario's runtime baselines besides the reference. */
export const runtimeBaselinesText = (scenario: { baseline: string; runtimes?: Partial<Record<string, string>> }) =>
  Object.entries(scenario.runtimes ?? {})
    .filter(([, name]) => name !== undefined && name !== scenario.baseline)
    .map(([runtime, name]) => `${name} (${runtime})`)
    .join(", ");

/** What a row says of the server: failed answers, peak memory, CPU, CPU per request. */
export const serverCells = (row: SummaryRow) => [
  `${row.non2xx} / ${row.errors}`,
  mb(row.peakRssBytes.median),
  pct(row.serverCpuCores.median),
  num(row.cpuMicrosPerRequest.median),
];

/** What a row is beside its name: a baseline, the A/A twin (a second process of the limit baseline), or neither. */
export function roleOf(row: SummaryRow, targets: readonly TargetInfo[]): "baseline" | "A/A twin" | undefined {
  if (targets.some((t) => t.name === row.target && t.twinOf)) return "A/A twin";
  return row.role === "baseline" ? "baseline" : undefined;
}

/**
 * A target's start-up in milliseconds as the report quotes it: with --restart cell, the median of its cells' fresh
 * processes (and how many); otherwise its one start.
 */
export function startupText(r: Results, t: TargetInfo): string {
  const starts = r.cells.filter((c) => c.target === t.name && !c.discarded && isNum(c.startupMs));
  if (starts.length === 0) return num(t.startupMs);
  return `${num(median(starts.map((c) => c.startupMs as number)))} (median of ${starts.length})`;
}

/** The start-up table's role column: "baseline (database)", "A/A twin of node-http", or the implementation's variant. */
export const roleText = (t: TargetInfo) =>
  t.twinOf ? `A/A twin of ${t.twinOf}` : t.role === "baseline" ? `baseline (${t.baselineFor})` : t.variant;

/**
 * The Method line's cell: warm-up and measured seconds, and whether each cell had a fresh server process (its
 * warm-up then at least the settling).
 */
export const cellText = (r: Results) => {
  const o = r.options;
  const fresh = o.restart === "cell";
  const warmup = fresh ? Math.max(Number(o.warmupS), Number(o.settleS ?? 0)) : o.warmupS;
  return `${fresh ? "a fresh server process per cell, " : ""}${warmup} s warm-up + ${o.durationS} s measured`;
};

/** The Method line's pairing: how each ratio's two sides were measured. */
export const pairingText = (r: Results) =>
  (r.pairing ?? "sequential") === "duet" ? DUET_TEXT : "sequential: one target at a time, interleaved";
const DUET_TEXT =
  "duet: each target at the same time as its baseline, each server (with its PostgreSQL backends) in its own " +
  "control group with an equal CPU quota, ratios of requests per CPU-second";

/**
 * A split row's cells (scenario, implementation, total, framework, data access, metric), each figure in the headline
 * metric, marked `mark("even")` or `mark("can't tell")` where its interval says so. `text` escapes names.
 */
export function splitCells(
  r: Results,
  s: SplitRow,
  text: (name: string) => string,
  mark: (difference: Difference) => string,
): string[] {
  const band = bandOf(r, s);
  const figure = (rps: Interval, perCpu: Interval, perInstruction: Interval | undefined) => {
    const i = ratioIn({ rpsRatio: rps, cpuRatio: perCpu, insRatio: perInstruction }, s.headline);
    const difference = differenceOf(i, band);
    const said = difference === "even" || difference === "can't tell" ? ` ${mark(difference)}` : "";
    return `${ratioWithInterval(i)}${said}`;
  };
  const counts = new Set(r.split.map((row) => row.connections));
  return [
    text(counts.size > 1 ? `${s.scenario} @${s.connections}` : s.scenario),
    text(s.target),
    figure(s.total, s.totalCpu, s.totalIns),
    `${figure(s.framework, s.frameworkCpu, s.frameworkIns)} × ${text(s.layer)}`,
    figure(s.dataAccess, s.dataAccessCpu, s.dataAccessIns),
    METRIC[s.headline],
  ];
}

/** The split table's legend for its verdicts, with each scenario's band. */
export const splitVerdictNote = (r: Results, mark: (difference: Difference) => string) => {
  const pct = (band: number) => `±${(band * 100).toFixed(1)}%`;
  const several = new Set(r.split.map((x) => x.connections)).size > 1;
  const bands = [...new Map(r.split.map((s) => [`${s.scenario}@${s.connections}`, s])).values()].map(
    (s) => `${s.scenario}${several ? ` @${s.connections}` : ""} ${pct(bandOf(r, s))}`,
  );
  const unsure = "the 95% interval is too wide to say whether the figure is above, below or within the band around 1";
  const even = "within the band, on an interval no wider than it";
  const here = bands.length > 0 ? ` (here: ${bands.join(", ")})` : "";
  const band = `The band is the precision asked for, or the A/A half-width of the figure's scenario when wider${here}.`;
  return `${mark("can't tell")}: ${unsure}; ${mark("even")}: ${even}. ${band} Unmarked figures are clearly above or below 1.`;
};

function aaRatio(i: Interval): string {
  if (!isNum(i.value)) return "–";
  const interval = isNum(i.low) && isNum(i.high) ? ` (${i.low.toFixed(3)}–${i.high.toFixed(3)})` : " (n=1)";
  return `${i.value.toFixed(3)}×${interval}`;
}

/** "hello @100: node-http~aa ÷ node-http = 1.004× (0.991–1.017), ±1.3% in requests/s — ok". */
export const aaText = (a: AaLine) => {
  const metric = METRIC[a.metric];
  const ratio = `${a.twin} ÷ ${a.baseline} = ${aaRatio(a.ratio)}, ${precisionOf(a.ratio)} in ${metric}`;
  return `${a.scenario} @${a.connections}: ${ratio} — ${a.verdict}`;
};

/**
 * "This run's resolving power", the report's first section: one line per A/A line, what the widest says, and,
 * when an A/A line is biased, that the run failed its precision check. Undefined for a run without A/A lines.
 */
export function resolvingPower(
  r: Results,
):
  | { about: string; lines: Array<{ text: string; verdict: AaLine["verdict"] }>; summary: string; failed?: string }
  | undefined {
  if (!r.aa?.length) return undefined;
  const biased = r.aa.filter((a) => a.verdict === "biased");
  const where = biased.map((a) => `${a.scenario} @${a.connections}`).join(", ");
  const failed =
    `This run failed its precision check: the two copies of one server differed (${where}), so something other than ` +
    "the code decided the figures. Quote the figures of this run only as orderings, not as sizes.";
  return {
    about:
      "Each limit baseline measured against a second process of itself (its A/A twin), through the same path as " +
      "every target: the true ratio is 1, so its interval is what this run can resolve.",
    lines: r.aa.map((a) => ({ text: aaText(a), verdict: a.verdict })),
    summary: Number.isFinite(r.resolution)
      ? `Differences under ±${((r.resolution as number) * 100).toFixed(1)}% cannot be told apart in this run.`
      : "No A/A line has an interval: this run's resolving power is unknown.",
    ...(biased.length > 0 ? { failed } : {}),
  };
}
