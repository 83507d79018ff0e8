// Number formatting and table cells shared by the Markdown and HTML reports.
import type { SummaryRow } from "../results.ts";
import type { Interval, Spread } from "../stats.ts";

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
 * A row's two ratio cells, throughput then CPU per request against its baseline (`1.00×` on the baseline's own row);
 * `emphasise` marks the one to quote.
 */
export function ratioCells(row: SummaryRow, emphasise: (text: string) => string): [string, string] {
  if (row.target === row.baseline) return ["1.00×", "1.00×"];
  const mark = (which: SummaryRow["headline"], text: string) => (row.headline === which ? emphasise(text) : text);
  return [
    mark("throughput", ratioWithInterval(row.rpsRatio)),
    mark("cpu-per-request", ratioWithInterval(row.cpuRatio)),
  ];
}

/** What a row says of the server: failed answers, peak memory, CPU, CPU per request. */
export const serverCells = (row: SummaryRow) => [
  `${row.non2xx} / ${row.errors}`,
  mb(row.peakRssBytes.median),
  pct(row.serverCpuCores.median),
  num(row.cpuMicrosPerRequest.median),
];
