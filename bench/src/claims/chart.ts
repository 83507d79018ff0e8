// The claims page's chart: every published figure that is a ratio, the article's and ours with its 95% interval on
// one log axis, coloured by verdict. Inline SVG (no script, nothing fetched), like report.html's charts.
import { esc } from "../report/format.ts";
import type { ClaimRow, ClaimsTable } from "./table.ts";
import { VERDICTS, type Verdict } from "./verdict.ts";

const VERDICT_COLOURS: Record<Verdict, string> = {
  holds: "#2e8b57",
  "holds in direction only": "#d18f00",
  "does not hold": "#d1495b",
  "can't tell": "#7b4fbf",
  "not measured here": "#9aa0a6",
};

const PLOT_W = 420;
const VERDICT_W = 170;
const ROW_H = 20;
const TOP = 54;
/** The axis never reaches beyond 1/50 or 50: an interval further out is drawn to the edge, without its end cap. */
const CLAMP = 50;

/** The rows the chart can draw: those whose article's figure is a ratio (not an error rate, not an unknown figure). */
const chartedRows = (table: ClaimsTable) => table.rows.filter((row) => Number.isFinite(row.claimed.ratio));

const finite = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n) && n > 0;

/** "max_rps · nestjs-express ÷ express": the figure and the frameworks compared here (the article's in the tooltip). */
const labelOf = (row: ClaimRow) => `${row.figure} · ${row.comparison.match(/\((.+)\)$/)?.[1] ?? row.comparison}`;

export function claimsChart(tables: ClaimsTable[]): string {
  const groups = tables.map((t) => ({ table: t, rows: chartedRows(t) })).filter((g) => g.rows.length > 0);
  const values = groups.flatMap((g) =>
    g.rows.flatMap((row) => [
      row.claimed.ratio,
      row.measured.ratio?.value,
      row.measured.ratio?.low,
      row.measured.ratio?.high,
    ]),
  );
  const shown = [1, ...values.filter(finite)].map((v) => Math.min(CLAMP, Math.max(1 / CLAMP, v)));
  const [lo, hi] = [Math.min(...shown) / 1.2, Math.max(...shown) * 1.2];
  // About 6 px a character at the chart's 11 px.
  const labelW = Math.min(
    560,
    12 + 6 * Math.max(30, ...groups.flatMap((g) => g.rows.map((row) => labelOf(row).length))),
  );
  const x = (v: number) =>
    labelW + ((Math.log(Math.min(hi, Math.max(lo, v))) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * PLOT_W;
  const rowCount = groups.reduce((n, g) => n + 1 + g.rows.length, 0);
  const width = labelW + PLOT_W + VERDICT_W;
  const height = TOP + rowCount * ROW_H + 10;
  const title = "Claimed ratio (◇) and ours (●, with its 95% interval), every published figure, log axis";
  const size = `width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"`;
  const parts = [
    `<svg class="chart claims-chart" role="img" aria-label="${esc(title)}" ${size} xmlns="http://www.w3.org/2000/svg">`,
    `<text class="chart-title" x="0" y="14">${esc(title)}</text>`,
    legend(),
  ];
  const ticks = [0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50].filter((t) => t >= lo && t <= hi);
  for (const t of ticks) {
    parts.push(
      `<line x1="${x(t).toFixed(1)}" y1="${TOP - 6}" x2="${x(t).toFixed(1)}" y2="${height - 6}" stroke="${t === 1 ? "#555" : "#e4e4e4"}"/>`,
      `<text class="tick" x="${x(t).toFixed(1)}" y="${TOP - 10}" text-anchor="middle">${t}×</text>`,
    );
  }
  let y = TOP;
  for (const g of groups) {
    parts.push(`<text class="article" x="0" y="${y + 14}">${esc(g.table.article)}</text>`);
    y += ROW_H;
    for (const row of g.rows) {
      parts.push(claimRow(row, y, x, labelW));
      y += ROW_H;
    }
  }
  parts.push("</svg>");
  return parts.join("");
}

function legend(): string {
  let at = 0;
  const items = VERDICTS.map((v) => {
    const item = `<circle cx="${at + 5}" cy="29" r="4.5" fill="${VERDICT_COLOURS[v]}"/><text x="${at + 13}" y="33">${esc(v)}</text>`;
    at += 24 + v.length * 6;
    return item;
  });
  return `<g class="legend">${items.join("")}<text x="${at + 10}" y="33">◇ claimed · ● ours · │ no difference (1×)</text></g>`;
}

function claimRow(row: ClaimRow, y: number, x: (v: number) => number, labelW: number): string {
  const colour = VERDICT_COLOURS[row.verdict];
  const mid = y + ROW_H / 2;
  const m = row.measured.ratio;
  const said = `claimed ${row.claimed.text}, measured ${row.measured.text}`;
  const tip = `<title>${esc(`${row.figure}, ${row.comparison}: ${said} — ${row.verdict}`)}</title>`;
  const out = [
    `<g class="claim" data-verdict="${esc(row.verdict)}">${tip}`,
    `<text class="label" x="${labelW - 8}" y="${mid + 4}" text-anchor="end">${esc(labelOf(row))}</text>`,
  ];
  const cx = x(row.claimed.ratio);
  if (m && finite(m.value)) {
    const mx = x(m.value);
    out.push(
      `<line x1="${cx.toFixed(1)}" y1="${mid}" x2="${mx.toFixed(1)}" y2="${mid}" stroke="${colour}" stroke-dasharray="2,3"/>`,
    );
    if (finite(m.low) && finite(m.high)) {
      const [l, h] = [x(m.low), x(m.high)];
      const cap = (at: number, v: number) =>
        v >= 1 / CLAMP && v <= CLAMP
          ? `<line x1="${at.toFixed(1)}" y1="${mid - 4}" x2="${at.toFixed(1)}" y2="${mid + 4}"/>`
          : "";
      const line = `<line x1="${l.toFixed(1)}" y1="${mid}" x2="${h.toFixed(1)}" y2="${mid}"/>`;
      out.push(
        `<g class="interval" stroke="${colour}" stroke-width="1.5">${line}${cap(l, m.low)}${cap(h, m.high)}</g>`,
      );
    }
    out.push(`<circle class="measured" cx="${mx.toFixed(1)}" cy="${mid}" r="4.5" fill="${colour}"/>`);
  }
  out.push(
    `<path class="claimed" d="M${cx.toFixed(1)},${mid - 6}l6,6l-6,6l-6,-6z" fill="#fff" stroke="${colour}" stroke-width="2"/>`,
    `<text class="verdict" x="${labelW + PLOT_W + 10}" y="${mid + 4}" fill="${colour}">${esc(row.verdict)}</text>`,
    "</g>",
  );
  return out.join("");
}
