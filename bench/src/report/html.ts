// report.html: one self-contained page (inline CSS and SVG, no script, nothing fetched): the run's context and
// resolving power (A/A lines), per scenario a throughput chart with min–max whiskers and a latency chart, memory.

import { isGrowthRun } from "../analysis/growth.ts";
import { ratioIn } from "../analysis/ratios.ts";
import { atScale, scalesOf } from "../results/scales.ts";
import type { Results, SummaryRow, TargetInfo } from "../results/schema.ts";
import {
  cellText,
  esc,
  isNum,
  mb,
  ms,
  num,
  pairingText,
  pct,
  ratioCells,
  resolvingPower,
  roleOf,
  roleText,
  runtimeBaselinesText,
  runtimeRatioCell,
  serverCells,
  splitCells,
  splitVerdictNote,
  startupText,
  times,
  withRange,
} from "./format.ts";
import { growthHtml } from "./growth.ts";
import { capacityHtml, curveHtml, limitsText } from "./load-shapes.ts";
import { profilesHtml } from "./profiles.ts";

const COLORS = {
  baseline: "#8a8f98",
  impl: "#2f6fdf",
  p50: "#5aa469",
  p90: "#e3a21a",
  p99: "#d1495b",
  idle: "#9bb7e8",
  peak: "#2f6fdf",
};

interface Bar {
  label: string;
  value: number;
  min?: number;
  max?: number;
  text: string;
  color: string;
  failed?: string;
}

const LABEL_W = 170;
const TEXT_W = 210;
const ROW_H = 26;

/** Horizontal bars, one per row, each with an optional min–max whisker; failed rows say so instead. */
export function barChart(title: string, bars: Bar[], width = 760): string {
  const plotW = width - LABEL_W - TEXT_W;
  const top = 28;
  const height = top + bars.length * ROW_H + 8;
  const scaleMax = Math.max(1e-9, ...bars.filter((b) => !b.failed).map((b) => Math.max(b.value, b.max ?? 0)));
  const x = (v: number) => LABEL_W + (Math.max(0, v) / scaleMax) * plotW;
  const size = `width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"`;
  const parts = [
    `<svg class="chart" role="img" aria-label="${esc(title)}" ${size} xmlns="http://www.w3.org/2000/svg">`,
    `<text class="chart-title" x="0" y="16">${esc(title)}</text>`,
    `<line x1="${LABEL_W}" y1="${top - 4}" x2="${LABEL_W}" y2="${height - 4}" stroke="#ccc"/>`,
  ];
  bars.forEach((b, i) => {
    const y = top + i * ROW_H;
    parts.push(`<text class="label" x="${LABEL_W - 8}" y="${y + 15}" text-anchor="end">${esc(b.label)}</text>`);
    if (b.failed || !isNum(b.value)) {
      const why = esc((b.failed ?? "no data").slice(0, 90));
      parts.push(`<text class="failed" x="${LABEL_W + 6}" y="${y + 15}">FAILED: ${why}</text>`);
      return;
    }
    const w = Math.max(1, x(b.value) - LABEL_W);
    const tip = `<title>${esc(`${b.label}: ${b.text}`)}</title>`;
    const box = `x="${LABEL_W}" y="${y + 3}" width="${w.toFixed(1)}" height="${ROW_H - 8}"`;
    parts.push(`<rect class="bar" ${box} fill="${b.color}">${tip}</rect>`);
    if (isNum(b.min) && isNum(b.max) && b.max > b.min) {
      const mid = y + ROW_H / 2 - 1;
      const [lo, hi] = [x(b.min).toFixed(1), x(b.max).toFixed(1)];
      parts.push(
        `<g class="whisker" stroke="#222" stroke-width="1.5"><line x1="${lo}" y1="${mid}" x2="${hi}" y2="${mid}"/>` +
          `<line x1="${lo}" y1="${mid - 5}" x2="${lo}" y2="${mid + 5}"/>` +
          `<line x1="${hi}" y1="${mid - 5}" x2="${hi}" y2="${mid + 5}"/></g>`,
      );
    }
    parts.push(`<text class="value" x="${LABEL_W + plotW + 8}" y="${y + 15}">${esc(b.text)}</text>`);
  });
  parts.push("</svg>");
  return parts.join("");
}

/** Grouped bars: p50, p90 and p99 latency per target. */
export function latencyChart(
  title: string,
  rows: SummaryRow[],
  width = 760,
  targets: readonly TargetInfo[] = [],
): string {
  const bars: Bar[] = [];
  for (const row of rows) {
    const name = labelOf(row, targets);
    if (row.status === "failed") {
      bars.push({ label: name, value: Number.NaN, text: "", color: COLORS.p50, failed: row.failure ?? "failed" });
      continue;
    }
    for (const [key, color] of [
      ["p50", COLORS.p50],
      ["p90", COLORS.p90],
      ["p99", COLORS.p99],
    ] as const) {
      const s = row[key];
      bars.push({
        label: `${name} ${key}`,
        value: s.median,
        min: s.min,
        max: s.max,
        text: `${ms(s.median)} ms`,
        color,
      });
    }
  }
  return barChart(title, bars, width);
}

/** "express", "node-http (baseline)", "node-http~aa (A/A twin)". */
const labelOf = (row: SummaryRow, targets: readonly TargetInfo[]) => {
  const role = roleOf(row, targets);
  return role ? `${row.target} (${role})` : row.target;
};

function throughputChart(title: string, rows: SummaryRow[], targets: readonly TargetInfo[]): string {
  return barChart(
    title,
    rows.map((row) => ({
      label: labelOf(row, targets),
      value: row.rps.median,
      min: row.rps.min,
      max: row.rps.max,
      text: throughputText(row),
      color: row.role === "baseline" ? COLORS.baseline : COLORS.impl,
      ...(row.status === "failed" ? { failed: row.failure ?? "failed" } : {}),
    })),
  );
}

/** "12,345 req/s", and for a row other than the baseline its headline ratio: "· 0.85× (CPU/req) ⚠". */
function throughputText(row: SummaryRow): string {
  const rps = `${num(row.rps.median)} req/s`;
  if (row.target === row.baseline) return rps;
  const unit = { throughput: "", "cpu-per-request": " (CPU/req)", "instructions-per-request": " (instructions/req)" };
  const ratio = times(ratioIn(row, row.headline).value);
  return `${rps} · ${ratio}${unit[row.headline]}${row.loadGeneratorSaturated ? " ⚠" : ""}`;
}

function memoryChart(r: Results): string {
  const bars: Bar[] = [];
  for (const t of r.targets) {
    const peaks = r.summary.filter((s) => s.target === t.name && s.status === "ok").map((s) => s.peakRssBytes.max);
    const peak = peaks.length ? Math.max(...peaks.filter(isNum)) : Number.NaN;
    const mbOf = (b: number) => b / 1048576;
    bars.push({
      label: `${t.name} idle`,
      value: mbOf(t.idleRssBytes ?? Number.NaN),
      text: `${mb(t.idleRssBytes)} MB`,
      color: COLORS.idle,
      ...(t.error ? { failed: t.error } : {}),
    });
    if (!t.error && isNum(peak))
      bars.push({ label: `${t.name} peak`, value: mbOf(peak), text: `${mb(peak)} MB`, color: COLORS.peak });
  }
  return barChart("Resident memory (MB): idle after start-up, and peak under load (highest of any scenario)", bars);
}

/** The ratio a reader should quote is bold. */
function table(rows: SummaryRow[], database: boolean, targets: readonly TargetInfo[]): string {
  const head = [
    "implementation",
    "req/s median (min–max)",
    "× baseline req/s (95% CI)",
    "× baseline CPU/req (95% CI)",
    "runtime",
    "× own runtime's baseline (95% CI)",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "max ms",
    "non-2xx / errors",
    "peak RSS MB",
    "server CPU",
    "CPU µs/req",
    "PG µs/req",
    "load gen CPU",
  ];
  const body = rows.map((row) => {
    const role = roleOf(row, targets);
    const name = role ? `<em>${esc(row.target)}</em> (${role})` : esc(row.target);
    if (row.status === "failed") {
      const failed = `<strong>FAILED</strong>: ${esc(row.failure ?? "")}`;
      return `<tr class="failed-row"><td>${name}</td><td colspan="${head.length - 1}">${failed}</td></tr>`;
    }
    const flag = row.loadGeneratorSaturated
      ? ' <span class="warn" title="load generator near saturation">⚠</span>'
      : "";
    const cells = [
      withRange(row.rps) + flag,
      ...ratioCells(row, (text) => `<strong title="${esc(row.headlineReason)}">${text}</strong>`).slice(0, 2),
      esc(row.runtime ?? "–"),
      runtimeRatioCell(row),
      ms(row.p50.median),
      ms(row.p90.median),
      ms(row.p99.median),
      ms(row.max.median),
      ...serverCells(row),
      database ? num(row.postgresMicrosPerRequest.median) : "–",
      pct(row.loadGeneratorCpuCores.median) + flag,
    ];
    return `<tr><td>${name}</td>${cells.map((c) => `<td class="n">${c}</td>`).join("")}</tr>`;
  });
  const thead = `<thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead>`;
  return `<table>${thead}<tbody>${body.join("")}</tbody></table>`;
}

export function renderHtml(r: Results): string {
  const limits = limitsText(r);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Benchmark ${esc(r.startedAt.slice(0, 16))} — ${esc(r.machine.cpuModel)}</title>
<style>
${isGrowthRun(r) ? `${STYLE}\n${GROWTH_STYLE}` : STYLE}
</style></head><body>
<h1>Benchmark results</h1>
<p class="note">One run on one machine: compare the ratios within this run, not absolute numbers across machines or runs.</p>
<dl>
${runFacts(r)}
${limits ? `<dt>Limits</dt><dd>${esc(limits)}</dd>` : ""}
</dl>
${isGrowthRun(r) ? growthRunBody(r) : measuredHtml(r)}
${profilesHtml(r)}
${saturatedNote(r)}
<p class="note">${FOOTNOTE}</p>
</body></html>
`;
}

/** What one scale measured: resolving power, the split, start-up and memory, a section per scenario. */
function measuredHtml(r: Results): string {
  return `${aaSection(r)}
${capacityHtml(r)}
${curveHtml(r)}
${splitSection(r)}
<h2>Start-up and memory</h2>
${startupTable(r)}
${memoryChart(r)}
${scenarioSections(r).join("\n")}`;
}

/** A growth run: the growth section, then each scale as a run of its own. */
function growthRunBody(r: Results): string {
  const scales = scalesOf(r).map((scale) => {
    const at = atScale(r, scale);
    const heading = `<h1>At scale ${scale} <small>${num(at.rows.orders)} orders</small></h1>`;
    return `<section class="at-scale" id="scale-${scale}">${heading}\n${measuredHtml(at)}</section>`;
  });
  return `${growthHtml(r)}\n${scales.join("\n")}`;
}

const STYLE = [
  'body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1d1f23}',
  "h1{font-size:22px}h2{font-size:17px;margin-top:36px;border-bottom:1px solid #ddd;padding-bottom:4px}" +
    "h2 small{font-weight:normal;color:#666;font-size:13px}",
  "table{border-collapse:collapse;margin:10px 0 4px;font-size:12.5px}th,td{border:1px solid #ddd;padding:3px 7px}" +
    "th{background:#f4f5f7;text-align:left}",
  "td.n{text-align:right;white-space:nowrap}.failed-row td{background:#fdecee}.warn{color:#b8860b}",
  "svg.chart{display:block;margin:10px 0;font-size:12px}svg .chart-title{font-weight:600}svg .failed{fill:#c0392b}" +
    "svg .value{fill:#333}",
  "dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px}dt{color:#666}dd{margin:0}",
  ".note{color:#555;font-size:13px}.said{color:#7b4fbf}",
  ".alarm{background:#fdecee;border:2px solid #c0392b;padding:8px 12px;color:#8b1e12}" +
    ".aa-biased{color:#c0392b;font-weight:600}.aa-inconclusive{color:#666}",
].join("\n");
/** A growth run's own: the bar's verdicts, the charts' axes, each scale's heading (one-scale pages stay as they were). */
const GROWTH_STYLE = [
  ".kept-kept{color:#2e7d32}.kept-lost{color:#c0392b;font-weight:600}.kept-cannot-tell{color:#666;font-style:italic}",
  "svg .tick,svg .legend{font-size:11px}.at-scale h1{font-size:19px;margin-top:48px}",
].join("\n");

const FOOTNOTE = [
  "× own runtime's baseline is each row's ratio to the raw server of its own runtime (node-http, bun-http,",
  "deno-http; node-http-pg, bun-http-pg) in the quoted metric, the framework's cost on that runtime; × baseline is",
  "to Node's, so it also carries what the runtime changes (the same on Node rows). Ratios are geometric means of",
  "the ratios paired repeat by repeat with the baseline measured next to it, with 95% confidence intervals",
  "(Student's t on their logarithms); the bold one is the one to quote. CPU is the server's whole process tree as",
  "a share of one core. A cell with any unexpected non-2xx or socket error is FAILED and not counted; a scenario",
  "that fails verification is never measured.",
].join(" ");

function modeText(o: Record<string, unknown>): string {
  const latency = "latency from the scheduled send time";
  if (o.rates)
    return `latency against offered load: one fixed-rate run per rate, ${esc(String(o.rates))} req/s, ${latency}`;
  return o.rate ? `fixed rate ${o.rate} req/s, ${latency}` : "max throughput";
}

/** The run's context: when, where, with what, and how it measured. */
function runFacts(r: Results): string {
  const o = r.options as Record<string, unknown>;
  const { machine: m, pinning: p } = r;
  const memory = `${Math.round(m.memoryBytes / 2 ** 30)} GiB`;
  const software = Object.entries(r.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  const precision = Math.round(Number(o.precision ?? 0.05) * 100);
  const load = `${esc(String(o.connections))} connections, pipelining ${o.pipelining}, ${cellText(r)}`;
  const repeats = `${o.repeats}–${o.maxRepeats ?? o.repeats} repeats interleaved (until ±${precision}%)`;
  const scale = `scale ${scalesOf(r).join(", ")}`;
  const servers = `${o.workers ?? 1} worker(s) per server; DB_POOL_SIZE=${o.poolSize} in all; ${scale}; seed ${r.seed}`;
  const pinning = `server ${esc(p.server)}, load generator ${esc(p.loadGenerator)}, PostgreSQL ${esc(p.postgres)}`;
  return [
    `<dt>When</dt><dd>${esc(r.startedAt)} → ${esc(r.finishedAt)}</dd>`,
    `<dt>Machine</dt><dd>${esc(m.cpuModel)}, ${m.logicalCpus} logical CPUs, ${memory}, ${esc(`${m.platform} ${m.kernel}`)}</dd>`,
    `<dt>Pinning</dt><dd>${pinning} — ${esc(p.note)}</dd>`,
    `<dt>Software</dt><dd>${esc(software)}; ${esc(r.postgres.version)} (${esc(r.postgres.provider)})</dd>`,
    `<dt>Method</dt><dd>${modeText(o)}; ${esc(pairingText(r))}; ${load}, ${repeats}; ${servers}</dd>`,
  ].join("\n");
}

/** One section per scenario and connection count: throughput and latency charts, then the table. */
function scenarioSections(r: Results): string[] {
  const sections: string[] = [];
  for (const scenario of r.scenarios) {
    const rows = r.summary.filter((s) => s.scenario === scenario.name);
    for (const connections of [...new Set(rows.map((s) => s.connections))]) {
      const these = rows.filter((s) => s.connections === connections);
      const others = runtimeBaselinesText(scenario);
      const baselines = `baseline ${esc(scenario.baseline)}${others ? `; each runtime's own: ${esc(others)}` : ""}`;
      const small = `<small>${esc(scenario.title)} · ${connections} connections · ${baselines}</small>`;
      // A growth run has a section per scenario at every scale.
      const at = these[0]?.scale;
      const id = `${esc(scenario.name)}-${connections}${at === undefined ? "" : `-at-${at}`}`;
      sections.push(
        `<section class="scenario" id="${id}"><h2>${esc(scenario.name)} ${small}</h2>` +
          throughputChart(
            `Requests/s (bar: median, whisker: min–max of ${r.options.repeats} repeats)`,
            these,
            r.targets,
          ) +
          latencyChart("Latency percentiles, ms (median of repeats, whisker: min–max)", these, 760, r.targets) +
          table(these, scenario.kind === "database", r.targets) +
          "</section>",
      );
    }
  }
  return sections;
}

function startupTable(r: Results): string {
  const rows = r.targets
    .map((t) => {
      const startup = t.error ? `<strong>${esc(t.error)}</strong>` : esc(startupText(r, t));
      const figures = `<td class="n">${startup}</td><td class="n">${mb(t.idleRssBytes)}</td>`;
      return `<tr><td>${esc(t.name)}</td><td>${esc(roleText(t))}</td>${figures}</tr>`;
    })
    .join("");
  const head = "<tr><th>implementation</th><th>role</th><th>start-up ms</th><th>idle RSS MB</th></tr>";
  return `<table><thead>${head}</thead><tbody>${rows}</tbody></table>`;
}

const SPLIT_ABOUT = [
  "Each implementation's figure on a database scenario as a ratio to the raw baseline of its own runtime",
  "(node-http-pg; bun-http-pg on Bun), split into framework (implementation ÷ the same data access without a",
  "framework) × data access (that ÷ the raw baseline); 95% confidence intervals; requests/s, or CPU per request",
  "where the load generator saturated, or instructions per request in a --count instructions run.",
].join(" ");
const SPLIT_HEAD = ["scenario", "implementation", "total", "framework", "data access", "ratio of"];

function splitSection(r: Results): string {
  if (!r.split.length) return "";
  const mark = (said: string) => `<em class="said">${esc(said)}</em>`;
  const rows = r.split
    .map((row) => {
      const [scenario, target, ...figures] = splitCells(r, row, esc, mark);
      const last = figures.pop();
      return `<tr><td>${scenario}</td><td>${target}</td>${figures.map((f) => `<td class="n">${f}</td>`).join("")}<td>${last}</td></tr>`;
    })
    .join("");
  const head = `<thead><tr>${SPLIT_HEAD.map((h) => `<th>${h}</th>`).join("")}</tr></thead>`;
  const note = `<p class="note">${splitVerdictNote(r, mark)}</p>`;
  return `<h2>Framework cost × data-access cost</h2><p class="note">${SPLIT_ABOUT}</p><table>${head}<tbody>${rows}</tbody></table>${note}`;
}

function aaSection(r: Results): string {
  const power = resolvingPower(r);
  if (!power) return "";
  const alarm = power.failed ? `<p class="alarm"><strong>⚠ ${esc(power.failed)}</strong></p>` : "";
  const lines = power.lines.map((line) => `<li class="aa-${line.verdict}">${esc(line.text)}</li>`).join("");
  const body = `${alarm}<p class="note">${esc(power.about)}</p><ul>${lines}</ul><p><strong>${esc(power.summary)}</strong></p>`;
  return `<section class="aa" id="resolving-power"><h2>This run's resolving power</h2>${body}</section>`;
}

function saturatedNote(r: Results): string {
  if (!r.summary.some((s) => s.loadGeneratorSaturated)) return "";
  const share = Math.round(Number(r.options.loadGeneratorSaturationThreshold ?? 0.9) * 100);
  const text = `The load generator used at least ${share}% of its core: that figure may be the load generator's limit, not the server's.`;
  return `<p class="note"><span class="warn">⚠</span> ${text}</p>`;
}
