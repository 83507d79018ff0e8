// pnpm bench --compare OLD [NEW] — did a change make it slower? Absolute requests/s do not travel across runs
// (another machine, another load); each target's ratio to its baseline in the same run does. So each target's
// headline ratio in NEW is divided by its ratio in OLD, the two runs' intervals combined, and the verdict read
// against the band the two runs' A/A lines can resolve.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "@api-ref/harness";
import { aaText, bandOf, esc, escapeCell, isNum, num, ratioWithInterval } from "./report/format.ts";
import { timestampDir } from "./report/write.ts";
import type { Results, SummaryRow } from "./results.ts";
import { differenceOf, type Interval } from "./stats.ts";

export const COMPARE_USAGE = `usage: pnpm bench --compare OLD [NEW] [--out DIR]

  OLD, NEW   a run's directory (holding results.json) or its results.json; without NEW, the most recent
             timestamped run under bench/results/ other than OLD
  --out DIR  where compare.md and compare.html are written (default: bench/results/compare-<timestamp>/)

Paths are relative to the directory pnpm bench was typed in. Exit code 0 with a report (even if slower), 2 on
bad input.`;

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

/** Reads a run from its directory or its results.json, refusing one that has no A/A line. */
export function loadRun(label: Run["label"], path: string, cwd: string): Run {
  const full = resolve(cwd, path);
  if (!existsSync(full)) throw new CompareRefused(`${label}: ${path} does not exist`);
  const file = statSync(full).isDirectory() ? join(full, "results.json") : full;
  let results: Results | undefined;
  try {
    results = JSON.parse(readFileSync(file, "utf8")) as Results;
  } catch {}
  if (!Array.isArray(results?.summary) || typeof results.startedAt !== "string") {
    throw new CompareRefused(`${label}: ${path} is not a results.json of pnpm bench, nor a directory holding one`);
  }
  if (!results.aa?.length) {
    throw new CompareRefused(
      `${label} has no A/A line (written before the bench measured one, or a --target run): re-run it with the current bench; comparisons across runs are only as good as the A/A lines of both runs (${path})`,
    );
  }
  const dir = dirname(file);
  return { label, shown: relative(cwd, dir) || ".", dir, results };
}

/** A run directory's name as `timestampDir` makes it. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/;

/** The most recent timestamped run directory with a results.json under `root`, other than `except`. */
function latestRun(root: string, except: string): string | undefined {
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .filter((d) => TIMESTAMP.test(d) && resolve(root, d) !== except && existsSync(join(root, d, "results.json")))
    .sort()
    .map((d) => join(root, d))
    .at(-1);
}

type Metric = SummaryRow["headline"];
const METRIC: Record<Metric, string> = { throughput: "requests/s", "cpu-per-request": "CPU/request" };
const ratioIn = (row: SummaryRow, metric: Metric) => (metric === "cpu-per-request" ? row.cpuRatio : row.rpsRatio);
const within = (band: number) => (isNum(band) ? `±${(band * 100).toFixed(1)}%` : "–");

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

/**
 * What one run can resolve, on the log scale: its band (`bandOf`: at least the precision it asked for), with its
 * A/A line at this scenario and connection count where it has one, else its widest.
 */
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

/** How a run was measured, as far as it moves ratios: side by side in the header, a warning where the runs differ. */
const SETUP: Array<[string, (r: Results) => string]> = [
  ["machine", (r) => `${r.machine.cpuModel}, ${r.machine.logicalCpus} logical CPUs`],
  ["Node", (r) => r.versions.node ?? r.machine.node],
  ["pairing", (r) => r.pairing ?? "sequential"],
  ["connections", (r) => String(r.options.connections)],
  ["duration", (r) => `${r.options.durationS} s`],
];

/** What differs between the runs' setups that moves ratios too, and A/A lines that did not hold. */
function warningsOf(old: Run, now: Run): string[] {
  const warnings = SETUP.filter(([, fact]) => fact(old.results) !== fact(now.results)).map(
    ([what, fact]) => `different ${what}: OLD ${fact(old.results)}, NEW ${fact(now.results)}`,
  );
  for (const run of [old, now]) {
    for (const line of run.results.aa ?? []) {
      if (line.verdict === "biased") {
        warnings.push(
          `${run.label}'s A/A line on ${line.scenario} (${line.connections} connections) excludes 1: something other than the code told two copies of ${line.baseline} apart`,
        );
      }
    }
  }
  return warnings;
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

export function compareRuns(old: Run, now: Run): Comparison {
  const names = (r: Results) => r.scenarios.map((s) => s.name);
  if (!names(old.results).some((s) => names(now.results).includes(s))) {
    throw new CompareRefused(
      `OLD and NEW have no scenario in common (OLD: ${names(old.results).join(", ")}; NEW: ${names(now.results).join(", ")}): nothing to compare`,
    );
  }
  const [before, after] = [comparable(old.results), comparable(now.results)];
  const changes: Change[] = [];
  const notCompared: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const [o, n] = [before.get(key), after.get(key)];
    const missing = !o ? "only in NEW" : !n ? "only in OLD" : undefined;
    const failed = [o, n].find((row) => row?.status === "failed");
    if (!o || !n || failed) {
      const why = missing ?? `failed in ${failed === o ? "OLD" : "NEW"}: ${failed?.failure ?? "failed"}`;
      notCompared.push(`${key}: ${why}`);
      continue;
    }
    const metric = o.headline === n.headline ? n.headline : "cpu-per-request";
    const change = changeOf(ratioIn(o, metric), ratioIn(n, metric));
    const band = bandOfBoth(old.results, now.results, n.scenario, n.connections);
    changes.push({
      scenario: n.scenario,
      connections: n.connections,
      target: n.target,
      metric,
      ...(o.headline !== n.headline
        ? { note: `CPU/request in both (the headline: ${METRIC[o.headline]} in OLD, ${METRIC[n.headline]} in NEW)` }
        : {}),
      old: ratioIn(o, metric),
      new: ratioIn(n, metric),
      change,
      band,
      verdict: verdictOf(change, band),
    });
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

interface Table {
  head: string[];
  rows: string[][];
}

/** The comparison as text, once, for both the Markdown and the HTML page. */
function pageOf(c: Comparison) {
  const runs = [c.old, c.new];
  const fact = (name: string, of: (r: Results, run: Run) => string) => [
    name,
    ...runs.map((run) => of(run.results, run)),
  ];
  const count = (word: string) => c.changes.filter((x) => x.verdict.startsWith(word)).length;
  return {
    title: `Comparing two runs: ${c.old.shown} → ${c.new.shown}`,
    runs: {
      head: ["", "OLD", "NEW"],
      rows: [
        fact("run", (_r, run) => run.shown),
        fact("started", (r) => `${r.startedAt.slice(0, 16).replace("T", " ")} UTC`),
        ...SETUP.map(([name, of]) => fact(name, of)),
        fact("load average at start", (r) => num(r.machine.loadAverage1m)),
        fact("A/A resolution (widest)", (r) => within(r.resolution ?? Number.NaN)),
      ],
    } satisfies Table,
    aa: runs.flatMap((run) => (run.results.aa ?? []).map((l) => `${run.label}: ${aaText(l)}`)),
    sentence: `A comparison across runs is only as good as the A/A lines of both runs: differences under ${within(c.band)} cannot be told apart here.`,
    warnings: c.warnings,
    tally: `${c.changes.length} compared: ${count("faster")} faster, ${count("slower")} slower, ${count("no change")} no change, ${count("can't tell")} can't tell.`,
    changes: {
      head: [
        "scenario",
        "connections",
        "target",
        "ratio of",
        "OLD × baseline (95% CI)",
        "NEW × baseline (95% CI)",
        "NEW ÷ OLD (95% CI)",
        "verdict",
      ],
      rows: c.changes.map((x) => [
        x.scenario,
        String(x.connections),
        x.target,
        x.note ?? METRIC[x.metric],
        ratioWithInterval(x.old),
        ratioWithInterval(x.new),
        ratioWithInterval(x.change),
        x.verdict,
      ]),
    } satisfies Table,
    explanation:
      "Each figure is a target's ratio to its baseline in the same run (requests/s: target ÷ baseline; CPU per request: baseline ÷ target; above 1 is better in both), since absolute figures do not travel across runs. NEW ÷ OLD above 1: the target gained on its baseline. Its 95% interval combines both runs' on the log scale; faster or slower when the whole interval lies on one side of 1 and the change is beyond the band both runs' A/A lines (at least their precision) can resolve; no change when it is within that band; can't tell when the interval is too wide to decide.",
    notCompared: c.notCompared,
  };
}

const mdTable = (t: Table) =>
  [t.head, t.head.map(() => "---"), ...t.rows].map((row) => `| ${row.map(escapeCell).join(" | ")} |`).join("\n");
const mdList = (title: string, items: string[]) =>
  items.length ? `${title}\n\n${items.map((i) => `- ${i}`).join("\n")}\n\n` : "";

export function compareMarkdown(c: Comparison): string {
  const p = pageOf(c);
  return `# ${p.title}

${mdTable(p.runs)}

${mdList("## A/A lines", p.aa)}${p.sentence}

${mdList("**Warnings**", p.warnings)}## Changes (NEW ÷ OLD)

${p.tally}

${mdTable(p.changes)}

${p.explanation}

${mdList("## Not compared", p.notCompared)}`;
}

/** A cell's class: the verdicts coloured, ratios kept on one line. */
const classOf = (cell: string) =>
  ({ faster: "faster", slower: "slower", "can't tell": "unsure" })[cell] ?? (cell.includes("×") ? "n" : undefined);
const htmlTable = (t: Table) =>
  `<table><thead><tr>${t.head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${t.rows
    .map(
      (row) =>
        `<tr>${row.map((cell) => `<td${classOf(cell) ? ` class="${classOf(cell)}"` : ""}>${esc(cell)}</td>`).join("")}</tr>`,
    )
    .join("")}</tbody></table>`;
const htmlList = (title: string, items: string[]) =>
  items.length ? `<h2>${esc(title)}</h2><ul>${items.map((i) => `<li>${esc(i)}</li>`).join("")}</ul>` : "";

/** compare.html: one self-contained page (inline CSS, no script), in the style of report.html. */
export function compareHtml(c: Comparison): string {
  const p = pageOf(c);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(p.title)}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1d1f23}
h1{font-size:22px}h2{font-size:17px;margin-top:30px;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;margin:10px 0;font-size:12.5px}th,td{border:1px solid #ddd;padding:3px 7px}th{background:#f4f5f7;text-align:left}
td.n{white-space:nowrap}td.faster{background:#e7f5ea;font-weight:600}td.slower{background:#fdecee;font-weight:600}td.unsure{color:#666}
.note{color:#555;font-size:13px}.warn{color:#8a5a00}
</style></head><body>
<h1>${esc(p.title)}</h1>
${htmlTable(p.runs)}
${htmlList("A/A lines", p.aa)}
<p><strong>${esc(p.sentence)}</strong></p>
${p.warnings.length ? `<ul class="warn">${p.warnings.map((w) => `<li>⚠ ${esc(w)}</li>`).join("")}</ul>` : ""}
<h2>Changes (NEW ÷ OLD)</h2>
<p>${esc(p.tally)}</p>
${htmlTable(p.changes)}
<p class="note">${esc(p.explanation)}</p>
${htmlList("Not compared", p.notCompared)}
</body></html>
`;
}

/** `pnpm bench --compare …`: prints the comparison, writes compare.md and compare.html; returns the exit code. */
export async function compareCli(
  argv: string[],
  { cwd = process.env.INIT_CWD ?? process.cwd(), resultsRoot = join(REPO_ROOT, "bench", "results") } = {},
): Promise<number> {
  try {
    let parsed: ReturnType<typeof parseCompareArgs>;
    try {
      parsed = parseCompareArgs(argv);
    } catch (error) {
      throw new CompareRefused((error as Error).message, true);
    }
    const old = loadRun("OLD", parsed.old, cwd);
    let newPath = parsed.new;
    if (newPath === undefined) {
      newPath = latestRun(resultsRoot, old.dir);
      if (!newPath)
        throw new CompareRefused(`no other run under ${relative(cwd, resultsRoot)} to compare OLD with: give NEW`);
      process.stderr.write(
        `compare: NEW is ${relative(cwd, newPath)}, the most recent run under ${relative(cwd, resultsRoot)}\n`,
      );
    }
    const comparison = compareRuns(old, loadRun("NEW", newPath, cwd));
    const out = parsed.out ? resolve(cwd, parsed.out) : join(resultsRoot, `compare-${timestampDir(new Date())}`);
    await mkdir(out, { recursive: true });
    const markdown = compareMarkdown(comparison);
    await writeFile(join(out, "compare.md"), markdown);
    await writeFile(join(out, "compare.html"), compareHtml(comparison));
    process.stdout.write(markdown);
    process.stderr.write(
      `wrote ${relative(cwd, join(out, "compare.md"))}\n      ${relative(cwd, join(out, "compare.html"))}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof CompareRefused)) throw error;
    process.stderr.write(`error: ${error.message}\n${error.usage ? `\n${COMPARE_USAGE}\n` : ""}`);
    return 2;
  }
}

function parseCompareArgs(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { compare: { type: "string" }, out: { type: "string" } },
    allowPositionals: true,
  });
  if (!values.compare || positionals.length > 1) throw new Error("--compare takes one run or two (OLD [NEW])");
  return { old: values.compare, new: positionals[0], out: values.out };
}
