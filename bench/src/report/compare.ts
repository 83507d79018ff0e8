// compare.md and compare.html: a comparison of two runs (../analysis/compare.ts), as Markdown and as one HTML page.
import { type Comparison, METRIC, type Run, SETUP, within } from "../analysis/compare.ts";
import type { Results } from "../results/schema.ts";
import { aaText, esc, escapeCell, num, ratioWithInterval } from "./format.ts";

interface Table {
  head: string[];
  rows: string[][];
}

const CHANGES_HEAD = [
  "scenario",
  "connections",
  "target",
  "ratio of",
  "OLD × baseline (95% CI)",
  "NEW × baseline (95% CI)",
  "NEW ÷ OLD (95% CI)",
  "verdict",
];

const EXPLANATION = [
  "Each figure is a target's ratio to its baseline in the same run (requests/s: target ÷ baseline;",
  "CPU and instructions per request: baseline ÷ target; above 1 is better in all), since absolute figures do not",
  "travel across runs.",
  "NEW ÷ OLD above 1: the target gained on its baseline. Its 95% interval combines both runs' on the log scale;",
  "faster or slower when the whole interval lies on one side of 1 and the change is beyond the band both runs'",
  "A/A lines (at least their precision) can resolve; no change when it is within that band;",
  "can't tell when the interval is too wide to decide.",
].join(" ");

/** The runs side by side: where they came from and how they were measured. */
function runsTable(c: Comparison): Table {
  const fact = (name: string, of: (r: Results, run: Run) => string) => [
    name,
    ...[c.old, c.new].map((run) => of(run.results, run)),
  ];
  return {
    head: ["", "OLD", "NEW"],
    rows: [
      fact("run", (_r, run) => run.shown),
      fact("started", (r) => `${r.startedAt.slice(0, 16).replace("T", " ")} UTC`),
      ...SETUP.map(([name, of]) => fact(name, of)),
      fact("load average at start", (r) => num(r.machine.loadAverage1m)),
      fact("A/A resolution (widest)", (r) => within(r.resolution ?? Number.NaN)),
    ],
  };
}

const changesTable = (c: Comparison): Table => ({
  head: CHANGES_HEAD,
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
});

/** The comparison as text, once, for both the Markdown and the HTML page. */
function pageOf(c: Comparison) {
  const count = (word: string) => c.changes.filter((x) => x.verdict.startsWith(word)).length;
  const tally = [
    `${count("faster")} faster`,
    `${count("slower")} slower`,
    `${count("no change")} no change`,
    `${count("can't tell")} can't tell`,
  ].join(", ");
  return {
    title: `Comparing two runs: ${c.old.shown} → ${c.new.shown}`,
    runs: runsTable(c),
    aa: [c.old, c.new].flatMap((run) => (run.results.aa ?? []).map((l) => `${run.label}: ${aaText(l)}`)),
    sentence:
      "A comparison across runs is only as good as the A/A lines of both runs: " +
      `differences under ${within(c.band)} cannot be told apart here.`,
    warnings: c.warnings,
    tally: `${c.changes.length} compared: ${tally}.`,
    changes: changesTable(c),
    explanation: EXPLANATION,
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
const htmlCell = (cell: string) => `<td${classOf(cell) ? ` class="${classOf(cell)}"` : ""}>${esc(cell)}</td>`;
const htmlTable = (t: Table) => {
  const head = t.head.map((h) => `<th>${esc(h)}</th>`).join("");
  const rows = t.rows.map((row) => `<tr>${row.map(htmlCell).join("")}</tr>`).join("");
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
};
const htmlList = (title: string, items: string[]) =>
  items.length ? `<h2>${esc(title)}</h2><ul>${items.map((i) => `<li>${esc(i)}</li>`).join("")}</ul>` : "";

const STYLE = [
  'body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1d1f23}',
  "h1{font-size:22px}h2{font-size:17px;margin-top:30px;border-bottom:1px solid #ddd;padding-bottom:4px}",
  "table{border-collapse:collapse;margin:10px 0;font-size:12.5px}th,td{border:1px solid #ddd;padding:3px 7px}" +
    "th{background:#f4f5f7;text-align:left}",
  "td.n{white-space:nowrap}td.faster{background:#e7f5ea;font-weight:600}td.slower{background:#fdecee;font-weight:600}" +
    "td.unsure{color:#666}",
  ".note{color:#555;font-size:13px}.warn{color:#8a5a00}",
].join("\n");

/** compare.html: one self-contained page (inline CSS, no script), in the style of report.html. */
export function compareHtml(c: Comparison): string {
  const p = pageOf(c);
  const warnings = p.warnings.length
    ? `<ul class="warn">${p.warnings.map((w) => `<li>⚠ ${esc(w)}</li>`).join("")}</ul>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(p.title)}</title>
<style>
${STYLE}
</style></head><body>
<h1>${esc(p.title)}</h1>
${htmlTable(p.runs)}
${htmlList("A/A lines", p.aa)}
<p><strong>${esc(p.sentence)}</strong></p>
${warnings}
<h2>Changes (NEW ÷ OLD)</h2>
<p>${esc(p.tally)}</p>
${htmlTable(p.changes)}
<p class="note">${esc(p.explanation)}</p>
${htmlList("Not compared", p.notCompared)}
</body></html>
`;
}
