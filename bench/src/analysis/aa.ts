// The A/A lines (each limit baseline against a second process of itself) and the run's resolving power from them.
import type { AaLine, Results, SummaryRow, TargetInfo } from "../results/schema.ts";
import { ratioIn } from "./ratios.ts";

/** ok: the interval contains 1; biased: it excludes 1; inconclusive: no interval, or the twin failed. */
function verdictOf(row: SummaryRow, ratio: AaLine["ratio"]): AaLine["verdict"] {
  if (row.status !== "ok" || !Number.isFinite(ratio.low) || !Number.isFinite(ratio.high)) return "inconclusive";
  return ratio.low <= 1 && ratio.high >= 1 ? "ok" : "biased";
}

/** The A/A lines: each limit baseline's twin against it, per scenario and connections, in the twin row's headline. */
export function aaLines(summary: SummaryRow[], targets: TargetInfo[]): AaLine[] {
  const lines: AaLine[] = [];
  for (const row of summary) {
    const twin = targets.find((t) => t.name === row.target && t.twinOf === row.baseline);
    if (!twin) continue;
    const metric = row.headline;
    const ratio = ratioIn(row, metric);
    lines.push({
      scenario: row.scenario,
      connections: row.connections,
      baseline: row.baseline,
      twin: twin.name,
      metric,
      ratio,
      verdict: verdictOf(row, ratio),
    });
  }
  return lines;
}

/** The run's resolving power: the widest A/A half-width (NaN when no A/A line has an interval). */
export function resolutionOf(lines: AaLine[]): number {
  const widths = lines.map((l) => l.ratio.halfWidth).filter(Number.isFinite);
  return widths.length > 0 ? Math.max(...widths) : Number.NaN;
}

/**
 * The smallest difference a run can tell apart: the precision asked for (default ±5%), or the A/A resolution when
 * wider: of the scenario and connections given where it has an A/A interval, else the run's widest (null: unknown).
 */
export const bandOf = (r: Results, where?: { scenario: string; connections: number }) => {
  const isNum = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n);
  const line = where && r.aa?.find((l) => l.scenario === where.scenario && l.connections === where.connections);
  const resolution = line && isNum(line.ratio.halfWidth) ? line.ratio.halfWidth : r.resolution;
  return Math.max(Number(r.options.precision ?? 0.05), isNum(resolution) ? resolution : 0);
};
