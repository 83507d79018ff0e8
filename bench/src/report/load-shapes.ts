// The report's parts for --rate lists/ramps (latency against offered load: a table and one chart per scenario
// with every target on it), --slo (capacity at the latency bound beside the measured throughput) and
// --cpus/--memory (the limits the servers ran under). Used by markdown.ts and html.ts.

import { formatBytes } from "../limits.ts";
import type { CellResult, Results } from "../results/schema.ts";
import { sloLabel } from "../runner/capacity.ts";
import { achievedRate, keptUp } from "../runner/sweep.ts";
import { esc, escapeCell, isNum, ms, num } from "./format.ts";

/** "0.5 CPU, 256 MiB per server (cgroup v1 …)", or undefined when the servers ran unlimited. */
export function limitsText(r: Results): string | undefined {
  const l = r.limits;
  if (!l) return undefined;
  const parts = [
    l.cpus !== null ? `${l.cpus} CPU` : "",
    l.memoryBytes !== null ? `${formatBytes(l.memoryBytes)} memory` : "",
  ];
  return `${parts.filter(Boolean).join(", ")} per server (${l.mechanism}); ${l.note}`;
}

/** What happened at a step: ok, FAILED (why), or fell behind (answered less than 95% of the offered rate). */
export function stepStatus(cell: CellResult): string {
  if (cell.failure) return `FAILED: ${cell.failure}`;
  return keptUp(cell) ? "ok" : "fell behind";
}

const groups = (cells: CellResult[]) => {
  const keys = [...new Set(cells.map((c) => `${c.scenario}\0${c.connections}`))];
  return keys.map((key) => {
    const [scenario, connections] = key.split("\0") as [string, string];
    return {
      scenario,
      connections: Number(connections),
      cells: cells.filter((c) => `${c.scenario}\0${c.connections}` === key),
    };
  });
};

const CURVE_ABOUT = [
  "Each step a fixed arrival rate, latency counted from each request's scheduled send time (no coordinated omission).",
  "*fell behind*: the server answered less than 95% of the offered rate, so its latencies include the queue that",
  "built up; FAILED: errors or unexpected statuses (not a point of the curve).",
].join(" ");

export function curveMarkdown(r: Results): string[] {
  if (!r.curve?.length) return [];
  const lines = ["## Latency against offered load", ""];
  lines.push(CURVE_ABOUT, "");
  for (const g of groups(r.curve)) {
    lines.push(`### ${g.scenario}, ${g.connections} connections`, "");
    lines.push(
      "| implementation | offered req/s | achieved req/s | p50 ms | p99 ms | step |",
      "|---|--:|--:|--:|--:|---|",
    );
    const sorted = [...g.cells].sort((a, b) => a.target.localeCompare(b.target) || (a.rate ?? 0) - (b.rate ?? 0));
    for (const c of sorted) {
      const o = c.outcome;
      const figures = [num(achievedRate(c)), ms(o?.latency.p50), ms(o?.latency.p99)].join(" | ");
      lines.push(`| ${c.target} | ${c.rate} | ${figures} | ${escapeCell(stepStatus(c))} |`);
    }
    lines.push("");
  }
  return lines;
}

export function capacityMarkdown(r: Results): string[] {
  if (!r.capacity?.length) return [];
  const slo = r.capacity[0]?.slo;
  if (!slo) return [];
  const label = sloLabel(slo);
  const lines = [`## Capacity at ${label}`, ""];
  const [percentile, bound] = label.split("<");
  const within = Math.round((r.capacity[0]?.resolution ?? 0.1) * 100);
  const held = `${percentile} stayed under ${bound} with no errors and the server answering at least 95% of the rate`;
  const search = `short probes doubling then bisecting to within ${within}%, the figure confirmed by a full-length run`;
  const beside = "Max throughput (closed loop, as fast as it answers) beside it for comparison.";
  lines.push(`The highest fixed arrival rate at which ${held}: ${search}. ${beside}`, "");
  const capacityHead = `capacity at ${label} req/s | max throughput req/s (median)`;
  lines.push(
    `| scenario | implementation | connections | ${capacityHead} | probes | note |`,
    "|---|---|--:|--:|--:|--:|---|",
  );
  for (const c of r.capacity) {
    const row = r.summary.find(
      (s) => s.scenario === c.scenario && s.target === c.target && s.connections === c.connections,
    );
    const capacity = c.confirmed ? String(c.rate) : "**none**";
    const max = row && row.status === "ok" ? num(row.rps.median) : "–";
    const figures = `${capacity} | ${max} | ${c.probes.length}`;
    lines.push(`| ${c.scenario} | ${c.target} | ${c.connections} | ${figures} | ${escapeCell(c.note ?? "")} |`);
  }
  lines.push("");
  return lines;
}

const PALETTE = [
  "#2f6fdf",
  "#d1495b",
  "#5aa469",
  "#e3a21a",
  "#7b4fbf",
  "#1f9eab",
  "#b5651d",
  "#8a8f98",
  "#c2185b",
  "#33691e",
];

/** p50 (dashed) and p99 (solid) against offered rate, one colour per target, log latency axis; bad steps marked. */
export function curveChart(title: string, cells: CellResult[], width = 760, height = 340): string {
  const targets = [...new Set(cells.map((c) => c.target))];
  const pad = { left: 60, right: 170, top: 30, bottom: 40 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const rates = cells.map((c) => c.rate ?? 0);
  const lat = cells
    .flatMap((c) => [c.outcome?.latency.p50, c.outcome?.latency.p99])
    .filter((v): v is number => isNum(v) && v > 0);
  const [xMin, xMax] = [Math.min(...rates), Math.max(...rates)];
  const yMin = Math.max(0.01, Math.min(...lat, 1));
  const yMax = Math.max(...lat, yMin * 10);
  const x = (v: number) => pad.left + (xMax > xMin ? ((v - xMin) / (xMax - xMin)) * plotW : plotW / 2);
  const y = (v: number) =>
    pad.top + plotH - ((Math.log10(v) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * plotH;
  const size = `width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"`;
  const parts = [
    `<svg class="chart" role="img" aria-label="${esc(title)}" ${size} xmlns="http://www.w3.org/2000/svg">`,
    `<text class="chart-title" x="0" y="16">${esc(title)}</text>`,
    ...axes(pad, plotW, plotH, xMin, xMax, yMin, yMax, x, y),
  ];
  const legendX = width - pad.right;
  targets.forEach((target, i) => {
    const color = PALETTE[i % PALETTE.length] as string;
    const own = cells.filter((c) => c.target === target && c.outcome).sort((a, b) => (a.rate ?? 0) - (b.rate ?? 0));
    for (const [key, dash] of [
      ["p50", "5,4"],
      ["p99", ""],
    ] as const) {
      const point = (c: CellResult) =>
        `${x(c.rate ?? 0).toFixed(1)},${y(Math.max(yMin, c.outcome?.latency[key] ?? yMin)).toFixed(1)}`;
      const pts = own.filter((c) => !c.failure && isNum(c.outcome?.latency[key])).map(point);
      const stroke = `stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""}`;
      if (pts.length) parts.push(`<polyline class="curve" fill="none" ${stroke} points="${pts.join(" ")}"/>`);
    }
    parts.push(...cells.filter((c) => c.target === target).map((c) => stepMarker(c, color, x, y, yMin, pad.top)));
    const ly = pad.top + 14 + i * 18;
    const line = `<line x1="${legendX + 12}" y1="${ly - 4}" x2="${legendX + 32}" y2="${ly - 4}" stroke="${color}" stroke-width="2"/>`;
    parts.push(`${line}<text class="label" x="${legendX + 36}" y="${ly}">${esc(target)}</text>`);
  });
  const ly = pad.top + 14 + targets.length * 18 + 8;
  parts.push(`<text class="note" x="${width - pad.right + 12}" y="${ly}">solid p99, dashed p50</text>`);
  parts.push(`<text class="note" x="${width - pad.right + 12}" y="${ly + 16}">○ fell behind  ✕ errors</text>`);
  parts.push("</svg>");
  return parts.join("");
}

function axes(
  pad: { left: number; top: number },
  plotW: number,
  plotH: number,
  xMin: number,
  xMax: number,
  yMin: number,
  yMax: number,
  x: (v: number) => number,
  y: (v: number) => number,
): string[] {
  const bottom = pad.top + plotH;
  const middle = pad.top + plotH / 2;
  const out = [
    `<line x1="${pad.left}" y1="${bottom}" x2="${pad.left + plotW}" y2="${bottom}" stroke="#999"/>`,
    `<line x1="${pad.left}" y1="${pad.top}" x2="${pad.left}" y2="${bottom}" stroke="#999"/>`,
    `<text class="label" x="${pad.left + plotW / 2}" y="${bottom + 34}" text-anchor="middle">offered rate, requests/s</text>`,
    `<text class="label" x="12" y="${middle}" transform="rotate(-90 12 ${middle})" text-anchor="middle">latency, ms (log)</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const v = xMin + ((xMax - xMin) * i) / 4;
    out.push(
      `<text class="label" x="${x(v).toFixed(1)}" y="${bottom + 16}" text-anchor="middle">${Math.round(v)}</text>`,
    );
  }
  for (let e = Math.floor(Math.log10(yMin)); e <= Math.ceil(Math.log10(yMax)); e++) {
    const v = 10 ** e;
    if (v < yMin || v > yMax) continue;
    const at = y(v).toFixed(1);
    const grid = `<line x1="${pad.left}" y1="${at}" x2="${pad.left + plotW}" y2="${at}" stroke="#eee"/>`;
    const text = v >= 1 ? v : v.toFixed(2);
    const label = `<text class="label" x="${pad.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${text}</text>`;
    out.push(grid + label);
  }
  return out;
}

function stepMarker(
  c: CellResult,
  color: string,
  x: (v: number) => number,
  y: (v: number) => number,
  yMin: number,
  top: number,
): string {
  const cx = x(c.rate ?? 0).toFixed(1);
  const o = c.outcome;
  const figures = o
    ? `, p50 ${ms(o.latency.p50)} ms, p99 ${ms(o.latency.p99)} ms, ${num(achievedRate(c))} req/s answered`
    : "";
  const tip = `<title>${esc(`${c.target} @${c.rate} req/s: ${stepStatus(c)}${figures}`)}</title>`;
  if (c.failure) return `<text class="failed" x="${cx}" y="${top + 10}" text-anchor="middle">✕${tip}</text>`;
  const cy = y(Math.max(yMin, c.outcome?.latency.p99 ?? yMin)).toFixed(1);
  const fill = keptUp(c) ? color : "#fff";
  const circle = `cx="${cx}" cy="${cy}" r="4" fill="${fill}" stroke="${color}" stroke-width="2"`;
  return `<circle class="${keptUp(c) ? "step" : "step behind"}" ${circle}>${tip}</circle>`;
}

export function curveHtml(r: Results): string {
  if (!r.curve?.length) return "";
  const sections = groups(r.curve).map((g) => {
    const heading = `<h2>${esc(g.scenario)} <small>latency against offered load · ${g.connections} connections</small></h2>`;
    const chart = curveChart(`${g.scenario}: p50 and p99 against offered rate`, g.cells);
    return `<section class="curve" id="curve-${esc(g.scenario)}-${g.connections}">${heading}${chart}</section>`;
  });
  return `<p class="note">${CURVE_HTML_ABOUT}</p>${sections.join("\n")}`;
}

const CURVE_HTML_ABOUT = [
  "Latency against offered load: each step a fixed arrival rate, latency from each request's scheduled send time.",
  "A hollow point fell behind (answered less than 95% of the rate: its latency includes the queue);",
  "✕ marks a step with errors. The figures are in results.md and results.json.",
].join(" ");

export function capacityHtml(r: Results): string {
  if (!r.capacity?.length) return "";
  const label = sloLabel(r.capacity[0]?.slo ?? { percentile: 99, boundMs: 0 });
  const rows = r.capacity.map((c) => {
    const row = r.summary.find(
      (s) => s.scenario === c.scenario && s.target === c.target && s.connections === c.connections,
    );
    const max = row && row.status === "ok" ? num(row.rps.median) : "–";
    const figures = [c.connections, c.confirmed ? c.rate : "<strong>none</strong>", max, c.probes.length];
    const cells = figures.map((f) => `<td class="n">${f}</td>`).join("");
    return `<tr><td>${esc(c.scenario)}</td><td>${esc(c.target)}</td>${cells}<td>${esc(c.note ?? "")}</td></tr>`;
  });
  const how = "found by short probes (doubling, then bisection) and confirmed by a full-length run";
  const about = `The highest fixed rate holding ${esc(label)} with no errors while keeping up, ${how}; max throughput beside it.`;
  const head = [
    "scenario",
    "implementation",
    "connections",
    `capacity at ${esc(label)} req/s`,
    "max throughput req/s",
    "probes",
    "note",
  ];
  const thead = `<thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead>`;
  return `<h2>Capacity at ${esc(label)}</h2><p class="note">${about}</p><table>${thead}<tbody>${rows.join("")}</tbody></table>`;
}
