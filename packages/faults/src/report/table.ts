// The table printed at the end of a run: one row per implementation, one column per fault, pass/fail and the
// figures that matter in each cell, then the figures in full.
import { FAULTS, type FaultName } from "../options.ts";
import type { FaultResult, Figures } from "./figures.ts";

export type State = "passed" | "failed" | "skipped";

export interface Cell {
  state: State;
  result?: FaultResult;
}

const pct = (v: number | null) => (v === null ? "n/a" : `${v >= 0 ? "+" : ""}${v.toFixed(1)}%`);
const secs = (ms: number | null) => (ms === null ? "never" : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`);

/** The short summary of one fault's figures, for a table cell. */
export function summarize(figures: Figures): string {
  switch (figures.fault) {
    case "shutdown":
      return `lost ${figures.lost}/${figures.inFlightAtSignal} in flight, exit ${figures.exitCode ?? figures.exitSignal} in ${secs(figures.exitMs)}`;
    case "db-outage":
      return `503s ${figures.answered503}/${figures.whileDown} (max ${Math.round(figures.maxAnswerMs)} ms), recovery ${secs(figures.recoveryMs)}, stock ok ${figures.stockMismatches === 0 ? "yes" : "NO"}`;
    case "hostile-input":
      return `5xx ${figures.serverErrors}/${figures.requests}, mismatches ${figures.mismatches}`;
    case "schema-fuzz":
      return `${figures.failures} failures/${figures.cases} cases`;
    case "soak":
      return `heap ${pct(figures.heapGrowthPct)}, rss ${pct(figures.rssGrowthPct)}, ${Math.round(figures.requestsPerSecond)} req/s`;
  }
}

/** Every figure of one result, for the details below the table. */
export function details(figures: Figures): string {
  const { fault: _, ...rest } = figures;
  return Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === "object" && v !== null ? JSON.stringify(v) : v}`)
    .join(" ");
}

function cellText(cell: Cell | undefined): string {
  if (!cell) return "-";
  const label = cell.state === "passed" ? "PASS" : cell.state === "failed" ? "FAIL" : "skip";
  if (cell.result?.figures) return `${label} ${summarize(cell.result.figures)}`;
  if (cell.result?.note) return `${label} (${cell.result.note})`;
  return label;
}

/** A Markdown table: implementation × fault. */
export function renderTable(cells: Map<string, Map<FaultName, Cell>>): string {
  const faults = FAULTS.filter((f) => [...cells.values()].some((row) => row.has(f)));
  const rows = [
    ["implementation", ...faults],
    ...[...cells].map(([impl, row]) => [impl, ...faults.map((f) => cellText(row.get(f)))]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  const line = (r: string[]) => `| ${r.map((v, i) => v.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(rows[0] ?? []), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.slice(1).map(line)].join(
    "\n",
  );
}

export function renderDetails(cells: Map<string, Map<FaultName, Cell>>): string {
  const out: string[] = [];
  for (const [impl, row] of cells) {
    for (const fault of FAULTS) {
      const cell = row.get(fault);
      if (cell?.result?.figures) out.push(`${impl} ${fault}: ${details(cell.result.figures)}`);
    }
  }
  return out.join("\n");
}
