// The report's growth section (a run at several --scale values): per scenario, each target's requests/s and
// PostgreSQL µs per request against data size on a log axis, and its throughput at each scale over the smallest
// scale's with the bar of issue #35. Used by markdown.ts, html.ts and the console summary of modes/run.ts.
import {
  type GrowthLine,
  type GrowthPoint,
  type GrowthStep,
  growthLines,
  KEPT_SHARE,
  type Kept,
  pointFigure,
} from "../analysis/growth.ts";
import { scalesOf } from "../results/scales.ts";
import type { Results, SummaryRow } from "../results/schema.ts";
import { scenarios } from "../scenarios/catalog.ts";
import type { Spread } from "../stats.ts";
import { esc, escapeCell, isNum, num, ratioWithInterval, withRange } from "./format.ts";

const BAR = `${Math.round(KEPT_SHARE * 100)}%`;

/** "1→100 ×0.93 [0.88, 0.98] kept": a step's ratio as the console says it. */
function stepText(from: number, step: GrowthStep): string {
  if (step.kept === "failed") return `${from}→${step.scale} FAILED`;
  const { value, low, high } = step.ratio;
  const interval = isNum(low) && isNum(high) ? ` [${low.toFixed(2)}, ${high.toFixed(2)}]` : "";
  const ratio = isNum(value) ? `×${value.toFixed(2)}${interval}` : "no figure";
  return `${from}→${step.scale} ${ratio}${step.kept === "not judged" ? "" : ` ${step.kept}`}`;
}

/** One console line per scenario and target: `orders-list express: 1→100 ×0.93 [0.88, 0.98] kept`. */
export function growthConsoleLines(r: Results): string[] {
  const lines = growthLines(r);
  const counts = new Set(lines.map((l) => l.connections));
  return lines.map((line) => {
    const at = counts.size > 1 ? ` @${line.connections}` : "";
    const from = line.points[0]?.scale ?? r.scale;
    return `${line.scenario}${at} ${line.target}: ${line.steps.map((s) => stepText(from, s)).join("; ")}`;
  });
}

/** The lines of one scenario and connection count, in the run's scenario order. */
function groups(r: Results): Array<{ title: string; lines: GrowthLine[] }> {
  const lines = growthLines(r);
  const counts = new Set(lines.map((l) => l.connections));
  const keys = [...new Set(lines.map((l) => `${l.scenario}@${l.connections}`))];
  return keys.map((key) => {
    const these = lines.filter((l) => `${l.scenario}@${l.connections}` === key);
    const first = these[0] as GrowthLine;
    const at = counts.size > 1 ? `, ${first.connections} connections` : "";
    const title = `${first.scenario} — ${scenarios[first.scenario].title}${at}`;
    return { title, lines: these };
  });
}

const hasPostgres = (r: Results) =>
  growthLines(r).some((l) =>
    l.points.some((p) => isNum(pointFigure(p, (row) => row.postgresMicrosPerRequest)?.median)),
  );

const ABOUT_DATA =
  "Every scale on data seeded for it (scale 1 = 1,000 users, 5,000 products, 10,000 orders), its ratios, split and " +
  "A/A lines in its own section below.";

/** How the scales were measured, and so how their ratio's interval was had. */
const ABOUT_ORDER = {
  interleaved:
    "The scales were measured round by round (each round of a scenario at every scale, in turn), each server on its " +
    "own copy of each scale's data. *s ÷ smallest* is a target's throughput at scale s over its throughput at the " +
    "smallest scale: the geometric mean of the ratios paired round by round, with their 95% interval (Student's t " +
    "on the logarithms), as a target is paired with its baseline.",
  sequential:
    "The scales were measured one after the other, each as a run of its own. *s ÷ smallest* is a target's " +
    "throughput at scale s over its throughput at the smallest scale: the geometric mean of its repeats at each, with " +
    "a 95% interval that combines both scales' spread (their repeats are not pairs, so whatever changed on the " +
    "machine between the two is in it, and a shift of the whole machine between them is not).",
};

const ABOUT_BAR = [
  `The bar (issue #35): where a request's cost should not grow with the data, it keeps at least ${BAR} of its`,
  `throughput: **kept** when the whole interval is at or above ${KEPT_SHARE.toFixed(2)}, **lost** when all of it is`,
  "below, *cannot tell* when it straddles the bar or has no interval (one repeat); *not judged*: a scenario whose",
  "cost grows with the data by design (orders-deep-page: an OFFSET past every order before its page), shown at its",
  "real cost.",
].join(" ");

const keptMarkdown = (kept: Kept) =>
  kept === "kept" || kept === "lost" ? `**${kept}**` : kept === "failed" ? "**FAILED**" : `*${kept}*`;

const labelOf = (line: GrowthLine) => (line.role === "baseline" ? `*${line.target}* (baseline)` : line.target);

/** A point's figure as a table cell: "1,234 (1,200–1,300)", FAILED, or – where not measured. */
function pointCell(point: GrowthPoint, pick: (row: SummaryRow) => Spread): string {
  if (!point.row) return "–";
  if (point.row.status !== "ok") return "FAILED";
  return withRange(pick(point.row));
}

const stepCell = (step: GrowthStep) => `${ratioWithInterval(step.ratio)} ${keptMarkdown(step.kept)}`;

/** The table's columns: requests/s at every scale, PostgreSQL µs per request when the run has them, the steps. */
function tableHead(scales: number[], postgres: boolean): string[] {
  return [
    "implementation",
    ...scales.map((s) => `req/s at ${s}`),
    ...(postgres ? scales.map((s) => `PG µs/req at ${s}`) : []),
    ...scales.slice(1).map((s) => `${s} ÷ ${scales[0]} (95% CI)`),
  ];
}

/** The section's opening: the scales with their orders, and how to read the rest. */
const aboutText = (r: Results) =>
  `Scales: ${(r.scales ?? []).map((s) => `${s.scale} (${num(s.rows.orders)} orders)`).join(", ")}. ${ABOUT_DATA} ` +
  `${ABOUT_ORDER[r.scaleOrder ?? "sequential"]} ${ABOUT_BAR}`;

/** The growth section of results.md: what it shows, then per scenario one table of every target across the scales. */
export function growthMarkdown(r: Results): string[] {
  const scales = scalesOf(r);
  if (scales.length < 2) return [];
  const postgres = hasPostgres(r);
  const head = tableHead(scales, postgres);
  const lines = ["## Growth: cost against data size", "", aboutText(r), ""];
  for (const group of groups(r)) {
    lines.push(
      `### ${group.title}`,
      "",
      `| ${head.join(" | ")} |`,
      `|---|${head
        .slice(1)
        .map(() => "--:")
        .join("|")}|`,
    );
    for (const line of group.lines) {
      const cells = [
        labelOf(line),
        ...line.points.map((p) => pointCell(p, (row) => row.rps)),
        ...(postgres ? line.points.map((p) => pointCell(p, (row) => row.postgresMicrosPerRequest)) : []),
        ...line.steps.map(stepCell),
      ];
      lines.push(`| ${cells.map(escapeCell).join(" | ")} |`);
    }
    lines.push("");
  }
  return lines;
}

const PALETTE = ["#8a8f98", "#2f6fdf", "#d1495b", "#5aa469", "#e3a21a", "#7b4fbf", "#1f9eab", "#b5651d", "#c2185b"];

/** One target's figures across the scales, as a chart draws them. */
export interface Series {
  label: string;
  points: Array<{ scale: number; figure: Spread }>;
}

/** Ticks of a log axis: the powers of ten within [lo, hi], or the ends when none falls inside. */
function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    const v = 10 ** e;
    if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push(v);
  }
  return ticks.length >= 2 ? ticks : [lo, hi];
}

/**
 * A figure against data scale: x on a log axis (one tick per scale), y log when it spans a decade or more, else
 * linear from 0; per target a line through its medians, each point with its min–max whisker.
 */
export function growthChart(title: string, scales: number[], series: Series[], width = 760, height = 300): string {
  const pad = { left: 70, right: 190, top: 30, bottom: 36 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const values = series.flatMap((s) => s.points.flatMap((p) => [p.figure.min, p.figure.max, p.figure.median]));
  const positive = values.filter((v) => isNum(v) && v > 0);
  const [xLo, xHi] = [Math.min(...scales), Math.max(...scales)];
  const [yMin, yMax] = positive.length > 0 ? [Math.min(...positive), Math.max(...positive)] : [1, 10];
  const logY = yMax / yMin >= 10;
  const x = (v: number) => pad.left + ((Math.log(v) - Math.log(xLo)) / (Math.log(xHi) - Math.log(xLo))) * plotW;
  const y = logY
    ? (v: number) => pad.top + plotH - ((Math.log(v) - Math.log(yMin)) / (Math.log(yMax) - Math.log(yMin))) * plotH
    : (v: number) => pad.top + plotH - (v / (yMax * 1.05)) * plotH;
  const yTicks = logY ? logTicks(yMin, yMax) : [0, 0.25, 0.5, 0.75, 1].map((f) => f * yMax);
  const size = `width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"`;
  const axis = `data-y-axis="${logY ? "log" : "linear"}"`;
  const parts = [
    `<svg class="chart growth-chart" role="img" aria-label="${esc(title)}" ${axis} ${size} xmlns="http://www.w3.org/2000/svg">`,
    `<text class="chart-title" x="0" y="16">${esc(title)}</text>`,
    `<line x1="${pad.left}" y1="${pad.top + plotH}" x2="${pad.left + plotW}" y2="${pad.top + plotH}" stroke="#999"/>`,
    `<line x1="${pad.left}" y1="${pad.top}" x2="${pad.left}" y2="${pad.top + plotH}" stroke="#999"/>`,
    ...scales.map(
      (s) =>
        `<text class="tick" x="${x(s).toFixed(1)}" y="${pad.top + plotH + 16}" text-anchor="middle">${s}</text>` +
        `<line x1="${x(s).toFixed(1)}" y1="${pad.top}" x2="${x(s).toFixed(1)}" y2="${pad.top + plotH}" stroke="#eee"/>`,
    ),
    `<text class="tick" x="${pad.left + plotW / 2}" y="${height - 4}" text-anchor="middle">data scale (log)</text>`,
    ...yTicks.map(
      (v) => `<text class="tick" x="${pad.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${num(v)}</text>`,
    ),
  ];
  series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length] as string;
    const drawn = s.points.filter((p) => isNum(p.figure.median) && p.figure.median > 0);
    const path = drawn.map((p, j) => `${j ? "L" : "M"}${x(p.scale).toFixed(1)},${y(p.figure.median).toFixed(1)}`);
    parts.push(`<g class="series" data-label="${esc(s.label)}">`);
    if (path.length > 1)
      parts.push(`<path class="line" d="${path.join("")}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const p of drawn) parts.push(pointMark(p, x(p.scale), y, color, s.label));
    const legendY = pad.top + 14 + i * 16;
    parts.push(
      `<text class="legend" x="${pad.left + plotW + 12}" y="${legendY}" fill="${color}">${esc(s.label)}</text>`,
    );
    parts.push("</g>");
  });
  parts.push("</svg>");
  return parts.join("");
}

/** A point at its median, with a whisker from min to max. */
function pointMark(
  p: { scale: number; figure: Spread },
  cx: number,
  y: (v: number) => number,
  color: string,
  label: string,
): string {
  const { median, min, max } = p.figure;
  const tip = `<title>${esc(`${label} at scale ${p.scale}: ${withRange(p.figure)}`)}</title>`;
  const whisker =
    isNum(min) && isNum(max) && max > min && min > 0
      ? `<line class="whisker" x1="${cx.toFixed(1)}" y1="${y(min).toFixed(1)}" x2="${cx.toFixed(1)}" ` +
        `y2="${y(max).toFixed(1)}" stroke="${color}" stroke-width="1.5"/>`
      : "";
  const at = `cx="${cx.toFixed(1)}" cy="${y(median).toFixed(1)}"`;
  const circle = `<circle class="point" data-scale="${p.scale}" ${at} r="4" fill="${color}">${tip}</circle>`;
  return whisker + circle;
}

/** Each line's figure at every scale it was measured (and did not fail) at. */
function seriesOf(lines: GrowthLine[], pick: (row: SummaryRow) => Spread): Series[] {
  return lines.map((line) => ({
    label: line.role === "baseline" ? `${line.target} (baseline)` : line.target,
    points: line.points.flatMap((p) => {
      const figure = pointFigure(p, pick);
      return figure && isNum(figure.median) ? [{ scale: p.scale, figure }] : [];
    }),
  }));
}

const KEPT_CLASS: Record<Kept, string> = {
  kept: "kept",
  lost: "lost",
  "cannot tell": "cannot-tell",
  failed: "lost",
  "not judged": "not-judged",
};

/** A line's row of the HTML table: its figures at every scale, then its steps with their verdict's class. */
function rowHtml(line: GrowthLine, postgres: boolean): string {
  const cells = [
    ...line.points.map((p) => pointCell(p, (row) => row.rps)),
    ...(postgres ? line.points.map((p) => pointCell(p, (row) => row.postgresMicrosPerRequest)) : []),
  ].map((c) => `<td class="n">${esc(c)}</td>`);
  const steps = line.steps.map((s) => {
    const said = s.kept === "failed" ? "FAILED" : s.kept;
    return `<td class="n kept-${KEPT_CLASS[s.kept]}">${esc(ratioWithInterval(s.ratio))} ${esc(said)}</td>`;
  });
  const name = line.role === "baseline" ? `<em>${esc(line.target)}</em> (baseline)` : esc(line.target);
  return `<tr><td>${name}</td>${cells.join("")}${steps.join("")}</tr>`;
}

/** One scenario's charts (requests/s, and PostgreSQL µs per request when the run has them) and table. */
function scenarioHtml(group: { title: string; lines: GrowthLine[] }, scales: number[], postgres: boolean): string {
  const rps = growthChart(
    "Requests/s against data scale (median, whisker: min–max of the repeats)",
    scales,
    seriesOf(group.lines, (row) => row.rps),
  );
  const pg = postgres
    ? growthChart(
        "PostgreSQL CPU µs per request against data scale (median, whisker: min–max)",
        scales,
        seriesOf(group.lines, (row) => row.postgresMicrosPerRequest),
      )
    : "";
  const head = tableHead(scales, postgres)
    .map((h) => `<th>${esc(h)}</th>`)
    .join("");
  const rows = group.lines.map((line) => rowHtml(line, postgres)).join("");
  const table = `<table class="growth-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
  return `<section class="growth-scenario"><h3>${esc(group.title)}</h3>${rps}${pg}${table}</section>`;
}

/** The growth section of report.html: what it shows, then per scenario its charts and its table. */
export function growthHtml(r: Results): string {
  const scales = scalesOf(r);
  if (scales.length < 2) return "";
  const emphasis = esc(aboutText(r))
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/\*(.+?)\*/g, "<em>$1</em>");
  const sections = groups(r).map((group) => scenarioHtml(group, scales, hasPostgres(r)));
  const heading = "<h2>Growth: cost against data size</h2>";
  return `<section class="growth" id="growth">${heading}<p class="note">${emphasis}</p>${sections.join("")}</section>`;
}
