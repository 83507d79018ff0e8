// results.md's tables of a --count instructions run: per scenario, each target's instructions per request and its
// ratio to the baselines, in place of the requests/s tables (requests/s under valgrind is not a server's throughput).
import type { CellResult, Results, SummaryRow, TargetInfo } from "../results/schema.ts";
import { escapeCell, num, precisionOf, ratioCells, roleOf, runtimeRatioCell, withRange } from "./format.ts";

/** Whether the run counted instructions (its results.json's options say so). */
export const countsInstructions = (r: Results) => Boolean(r.options.instructions);

/** The Method line of a counting run: what a cell is, and what the count leaves out. */
export function instructionMethodText(r: Results): string {
  const plan = r.options.instructions as { warmupRequests: number; requests: number; rounds: number };
  return (
    `instructions per request under valgrind's callgrind: each cell a fresh server process, ${plan.warmupRequests} ` +
    `requests of warm-up uncounted, then ${plan.rounds} rounds of ${plan.requests} requests counted (the cell's ` +
    `figure is their mean), ${r.options.connections} connections, ${r.options.repeats} processes per target ` +
    "interleaved; user-space instructions only: the kernel (syscalls, TCP), cache and memory stalls and PostgreSQL's " +
    "own work are not in them, so a ratio here is the CPU work a request costs in the server, not its throughput"
  );
}

export const INSTRUCTION_COLUMNS = [
  "Columns: instructions/request is the median over the processes of each one's mean over its counted rounds",
  "(min–max in brackets); × baseline is the baseline's instructions per request over the row's (below 1: the row",
  "costs more), the geometric mean of the ratios paired process by process, with its 95% confidence interval",
  "(Student's t on the logarithms), and precision that interval's half-width; × own runtime's baseline the same",
  "against the raw server of the row's runtime; added to own runtime's baseline is the instructions per request the",
  "row costs on top of that raw server (its framework's and data access's own work: the row's count minus the",
  "baseline's, paired process by process, mean and 95% interval); rounds within a process is the widest distance of one round from its",
  "process's mean (a major garbage collection lands in one round and not another: the reason a cell counts several).",
  "A count leaves out the kernel, cache and memory stalls and PostgreSQL: the run's requests/s under valgrind are in",
  "results.json and are not the servers' throughput.",
].join(" ");

const HEADER = [
  "implementation",
  "instructions/request median (min–max)",
  "× baseline (95% CI)",
  "precision",
  "runtime",
  "× own runtime's baseline (95% CI)",
  "added to own runtime's baseline (95% CI)",
  "rounds within a process",
  "non-2xx / errors",
];
const RULE = "|---|--:|--:|--:|---|--:|--:|--:|--:|";

/** The instructions per request a row adds to its runtime's raw server: `+112,345 (111,900–112,800)`. */
function addedCell(row: SummaryRow): string {
  const added = row.insAdded;
  if (!added || !Number.isFinite(added.mean) || row.target === row.runtimeBaseline) return "–";
  const signed = (n: number) => `${n < 0 ? "−" : "+"}${num(Math.abs(n))}`;
  const range = Number.isFinite(added.low) ? ` (${signed(added.low)} to ${signed(added.high)})` : "";
  return `${signed(added.mean)}${range}`;
}

/** The widest spread of one process's rounds around their mean, over the row's processes (±%). */
function roundSpread(cells: readonly CellResult[]): string {
  const spreads = cells.flatMap((c) => {
    const i = c.instructions;
    if (!i || i.rounds.length < 2) return [];
    return [Math.max(...i.rounds.map((v) => Math.abs(v / i.perRequest - 1)))];
  });
  return spreads.length > 0 ? `±${(Math.max(...spreads) * 100).toFixed(1)}%` : "–";
}

function instructionRow(r: Results, row: SummaryRow, targets: readonly TargetInfo[]): string {
  const role = roleOf(row, targets);
  const name = role ? `*${escapeCell(row.target)}* (${role})` : escapeCell(row.target);
  const errors = `${row.non2xx} / ${row.errors}`;
  if (row.status === "failed") {
    return `| ${name} | **FAILED**: ${escapeCell(row.failure ?? "")} | – | – | ${row.runtime} | – | – | – | ${errors} |`;
  }
  const cells = r.cells.filter(
    (c) => c.scenario === row.scenario && c.connections === row.connections && c.target === row.target,
  );
  const ratio = row.insRatio;
  const [, , ins] = ratioCells(row, (text) => text);
  return [
    name,
    row.instructionsPerRequest ? withRange(row.instructionsPerRequest, num) : "–",
    ins,
    row.target === row.baseline || !ratio ? "–" : `${precisionOf(ratio)}, n=${ratio.n}`,
    row.runtime,
    runtimeRatioCell(row).replace(" instructions/req", ""),
    addedCell(row),
    roundSpread(cells),
    errors,
  ]
    .join(" | ")
    .replace(/^/, "| ")
    .concat(" |");
}

/** One table per scenario and connection count. */
export function instructionTables(r: Results): string[] {
  const lines: string[] = [];
  for (const scenario of r.scenarios) {
    const rows = r.summary.filter((s) => s.scenario === scenario.name);
    for (const connections of [...new Set(rows.map((s) => s.connections))]) {
      lines.push(`## ${scenario.name} — ${scenario.title}: instructions per request`, "");
      lines.push(`Baseline: ${scenario.baseline}; × baseline is its instructions per request over the row's.`, "");
      lines.push(`| ${HEADER.join(" | ")} |`, RULE);
      for (const row of rows.filter((s) => s.connections === connections))
        lines.push(instructionRow(r, row, r.targets));
      lines.push("");
    }
  }
  return lines;
}
