// results.md: the run's context, then one table per scenario, ready to paste into a README.
import type { Results, SummaryRow } from "../results.ts";
import { mb, ms, num, pct, ratioWithRange, withRange } from "./format.ts";

const SATURATED = "⚠";
const BELOW_RATE = "‡";

function describeRun(r: Results): string[] {
  const o = r.options as Record<string, unknown>;
  const mode = o.rate ? `fixed rate ${o.rate} req/s (latency from the scheduled send time)` : "max throughput";
  return [
    `- **When**: ${r.startedAt.slice(0, 16).replace("T", " ")} UTC, ${Math.round((Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000)} s`,
    `- **Machine**: ${r.machine.cpuModel}, ${r.machine.logicalCpus} logical CPUs, ${Math.round(r.machine.memoryBytes / 2 ** 30)} GiB, ${r.machine.platform} ${r.machine.kernel}; load average ${num(r.machine.loadAverage1m)} at the start`,
    `- **Pinning**: server ${r.pinning.server}, load generator ${r.pinning.loadGenerator}, PostgreSQL ${r.pinning.postgres} — ${r.pinning.note}`,
    `- **Software**: Node ${r.versions.node}, autocannon ${r.versions.autocannon}, Prisma ${r.versions["@prisma/client"]} (adapter-pg ${r.versions["@prisma/adapter-pg"]}), pg ${r.versions.pg}; PostgreSQL ${r.postgres.version.split(" ").slice(0, 2).join(" ")} (${r.postgres.provider})`,
    `- **Method**: ${mode}; ${o.connections} connections, pipelining ${o.pipelining}, ${o.warmupS} s warm-up + ${o.durationS} s measured, ${o.repeats} repeat(s) interleaved; DB_POOL_SIZE=${o.poolSize}; data scale ${r.scale} (${r.rows.users} users, ${r.rows.products} products, ${r.rows.orders} orders); each scenario verified first (${o.verifySample} requests per server)`,
  ];
}

const header =
  "| implementation | req/s median (min–max) | × baseline (min–max) | p50 ms | p99 ms | non-2xx / errors | peak RSS MB | server CPU | CPU µs/req | PG µs/req | load gen CPU |";
const rule = "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|";

export function tableRow(row: SummaryRow, database = false): string {
  const name = row.role === "baseline" ? `*${row.target}* (baseline)` : row.target;
  if (row.status === "failed") {
    return `| ${name} | **FAILED**: ${escapeCell(row.failure ?? "")} | – | – | – | ${row.non2xx} / ${row.errors} | – | – | – | – | – |`;
  }
  const flag = row.loadGeneratorSaturated ? ` ${SATURATED}` : "";
  const short = row.belowRate ? ` ${BELOW_RATE}` : "";
  return [
    name,
    `${withRange(row.rps)}${flag}${short}`,
    row.role === "baseline" ? "1.00×" : ratioWithRange(row.rpsRatio),
    ms(row.p50.median),
    ms(row.p99.median),
    `${row.non2xx} / ${row.errors}`,
    mb(row.peakRssBytes.median),
    pct(row.serverCpuCores.median),
    num(row.cpuMicrosPerRequest.median),
    database ? num(row.postgresMicrosPerRequest.median) : "–",
    `${pct(row.loadGeneratorCpuCores.median)}${flag}`,
  ]
    .join(" | ")
    .replace(/^/, "| ")
    .concat(" |");
}

const escapeCell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderMarkdown(r: Results): string {
  const lines: string[] = [];
  lines.push(`# Benchmark results — ${r.machine.cpuModel}, ${r.startedAt.slice(0, 10)}`, "");
  lines.push(
    "Figures from one run on one machine: compare the ratios within this run, not absolute numbers across machines or runs.",
    "",
  );
  lines.push(...describeRun(r), "");

  lines.push("## Start-up and memory", "");
  lines.push("| implementation | role | start-up ms (spawn → first good /health) | idle RSS MB | build s |");
  lines.push("|---|---|--:|--:|--:|");
  for (const t of r.targets) {
    const build = t.build ? (t.build.ok ? (t.build.ms / 1000).toFixed(1) : "failed") : "–";
    lines.push(
      `| ${t.name} | ${t.role === "baseline" ? `baseline (${t.baselineFor})` : t.variant} | ${t.error ? `**${escapeCell(t.error)}**` : num(t.startupMs)} | ${mb(t.idleRssBytes)} | ${build} |`,
    );
  }
  lines.push("");

  const saturated = r.summary.some((s) => s.loadGeneratorSaturated);
  const asked = r.options.connections as number[];
  for (const scenario of r.scenarios) {
    const rows = r.summary.filter((s) => s.scenario === scenario.name);
    for (const connections of [...new Set(rows.map((s) => s.connections))]) {
      lines.push(
        `## ${scenario.name} — ${scenario.title}${asked.length > 1 || !asked.includes(connections) ? `, ${connections} connections` : ""}`,
        "",
      );
      lines.push(`Baseline: ${scenario.baseline}.`, "");
      lines.push(header, rule);
      for (const row of rows.filter((s) => s.connections === connections)) {
        lines.push(tableRow(row, scenario.kind === "database"));
      }
      lines.push("");
    }
  }
  if (r.summary.some((s) => s.belowRate)) {
    lines.push(
      `${BELOW_RATE} Below 95% of the fixed rate asked for: the server could not keep up, and its latencies include the queue that built up.`,
      "",
    );
  }
  if (saturated) {
    lines.push(
      `${SATURATED} The load generator used at least ${Math.round(Number(r.options.loadGeneratorSaturationThreshold ?? 0.9) * 100)}% of its core in some repeat: that figure may be the load generator's limit rather than the server's, and its ratio understates the gap.`,
      "",
    );
  }
  lines.push(
    "Columns: req/s and its ratio are medians over the repeats (ratios paired repeat by repeat with the baseline run next to it), min–max in brackets; latencies are the medians of each repeat's percentiles; CPU is the server's whole process tree as a share of one core; CPU µs/req is server CPU time per response, PG µs/req PostgreSQL's (all its processes; shown for database scenarios when PostgreSQL runs on this machine). A cell with any unexpected non-2xx or socket error is FAILED and not counted; a scenario that fails verification is never measured.",
    "",
  );
  return lines.join("\n");
}
