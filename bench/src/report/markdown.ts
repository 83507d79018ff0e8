// results.md: the run's context and resolving power (its A/A lines), the split, then one table per scenario, ready
// to paste into a README.
import { isGrowthRun } from "../analysis/growth.ts";
import { ratioIn } from "../analysis/ratios.ts";
import { atScale, scalesOf } from "../results/scales.ts";
import type { Results, SummaryRow, TargetInfo } from "../results/schema.ts";
import {
  cellText,
  escapeCell,
  mb,
  ms,
  num,
  pairingText,
  pct,
  precisionOf,
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
  withRange,
} from "./format.ts";
import { growthMarkdown } from "./growth.ts";
import { countsInstructions, INSTRUCTION_COLUMNS, instructionMethodText, instructionTables } from "./instructions.ts";
import { capacityMarkdown, curveMarkdown, limitsText } from "./load-shapes.ts";
import { profilesMarkdown } from "./profiles.ts";

const SATURATED = "⚠";
const PG_CHEAPER = "◆";
const DISTURBED = "≈";
const BELOW_RATE = "‡";

function modeText(o: Record<string, unknown>): string {
  const rates = o.rates as number[] | null | undefined;
  const latency = "(latency from the scheduled send time)";
  if (rates) return `latency against offered load: one fixed-rate run per rate, ${rates.join(", ")} req/s ${latency}`;
  return o.rate ? `fixed rate ${o.rate} req/s ${latency}` : "max throughput";
}

function methodText(r: Results): string {
  const o = r.options as Record<string, unknown>;
  const precision = Math.round(Number(o.precision ?? 0.05) * 100);
  const until = `until every headline ratio's 95% interval is within ±${precision}%`;
  const repeats = `${o.repeats} to ${o.maxRepeats ?? o.repeats} repeats interleaved (${until})`;
  const pool = `DB_POOL_SIZE=${o.poolSize} in all (${o.poolPerWorker ?? o.poolSize} per worker)`;
  const workers = `${o.workers ?? 1} worker process(es) per server, ${pool}`;
  const data = isGrowthRun(r)
    ? `data scales ${(r.scales ?? []).map((s) => `${s.scale} (${s.rows.orders} orders)`).join(", ")}`
    : `data scale ${r.scale} (${r.rows.users} users, ${r.rows.products} products, ${r.rows.orders} orders)`;
  const verified = `each scenario verified first (${o.verifySample} requests per server, the scrypt routes 4 at most)`;
  if (countsInstructions(r)) return `${instructionMethodText(r)}; ${data}; ${verified}`;
  const load = `${o.connections} connections, pipelining ${o.pipelining}, ${cellText(r)}`;
  return `${modeText(o)}; ${pairingText(r)}; ${load}, ${repeats}; ${workers}; ${data}; ${verified}`;
}

function describeRun(r: Results): string[] {
  const { machine: m, versions: v, pinning: p } = r;
  const seconds = Math.round((Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000);
  const memory = `${Math.round(m.memoryBytes / 2 ** 30)} GiB`;
  const load = `load average ${num(m.loadAverage1m)} at the start`;
  const prisma = `Prisma ${v["@prisma/client"]} (adapter-pg ${v["@prisma/adapter-pg"]})`;
  const postgres = `PostgreSQL ${r.postgres.version.split(" ").slice(0, 2).join(" ")} (${r.postgres.provider})`;
  return [
    `- **When**: ${r.startedAt.slice(0, 16).replace("T", " ")} UTC, ${seconds} s`,
    `- **Machine**: ${m.cpuModel}, ${m.logicalCpus} logical CPUs, ${memory}, ${m.platform} ${m.kernel}; ${load}`,
    `- **Pinning**: server ${p.server}, load generator ${p.loadGenerator}, PostgreSQL ${p.postgres} — ${p.note}`,
    `- **Software**: Node ${v.node}, autocannon ${v.autocannon}, ${prisma}, pg ${v.pg}; ${postgres}`,
    `- **Method**: ${methodText(r)}`,
  ];
}

const HEADER = [
  "implementation",
  "req/s median (min–max)",
  "× baseline req/s (95% CI)",
  "× baseline CPU/req (95% CI)",
  "precision",
  "runtime",
  "× own runtime's baseline (95% CI)",
  "p50 ms",
  "p99 ms",
  "non-2xx / errors",
  "peak RSS MB",
  "server CPU",
  "CPU µs/req",
  "PG µs/req",
  "load gen CPU",
];
const header = `| ${HEADER.join(" | ")} |`;
const rule = "|---|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|";

/** The ratio to quote is bold. */
export function tableRow(row: SummaryRow, database = false, targets: readonly TargetInfo[] = []): string {
  const role = roleOf(row, targets);
  const name = role ? `*${row.target}* (${role})` : row.target;
  if (row.status === "failed") {
    const failed = `**FAILED**: ${escapeCell(row.failure ?? "")}`;
    const runtime = row.runtime ?? "–";
    const errors = `${row.non2xx} / ${row.errors}`;
    return `| ${name} | ${failed} | – | – | – | ${runtime} | – | – | – | ${errors} | – | – | – | – | – |`;
  }
  const flag = row.loadGeneratorSaturated ? ` ${SATURATED}` : "";
  const short = row.belowRate ? ` ${BELOW_RATE}` : "";
  const disturbed = row.disturbed > 0 ? ` ${DISTURBED}` : "";
  const isLimit = row.target === row.baseline;
  const headlineRatio = ratioIn(row, row.headline);
  return [
    name,
    `${withRange(row.rps)}${flag}${short}${disturbed}`,
    ...ratioCells(row, (text) => (text !== "–" ? `**${text}**` : text)).slice(0, 2),
    isLimit ? "–" : `${precisionOf(headlineRatio)}, n=${headlineRatio.n}`,
    row.runtime ?? "–",
    runtimeRatioCell(row),
    ms(row.p50.median),
    ms(row.p99.median),
    ...serverCells(row),
    database
      ? `${num(row.postgresMicrosPerRequest.median)}${row.beatsBaselineOnPostgres ? ` ${PG_CHEAPER}` : ""}`
      : "–",
    `${pct(row.loadGeneratorCpuCores.median)}${flag}`,
  ]
    .join(" | ")
    .replace(/^/, "| ")
    .concat(" |");
}

const SPLIT_ABOUT = [
  "Each implementation's figure on a database scenario, as a ratio to the raw baseline of its own runtime",
  "(node-http-pg: node:http + pg; bun-http-pg on Bun; node-http-pg for Python), split in two:",
  "**framework** = implementation ÷ the same data access with no framework",
  "(node-http-prisma: raw node:http calling packages/data-access; bun-http-prisma on Bun),",
  "**data access** = that ÷ the raw baseline. framework × data access = total.",
  "The ratio quoted is requests/s, or server CPU per request (baseline ÷ implementation) where the load generator",
  "saturated, or instructions per request (baseline ÷ implementation) in a --count instructions run; 95% confidence",
  "intervals in brackets.",
].join(" ");

/** The first table: each implementation's database figure as framework cost × data-access cost. */
export function splitTable(r: Results): string[] {
  if (r.split.length === 0) return [];
  const lines = [
    "## Framework cost × data-access cost",
    "",
    SPLIT_ABOUT,
    "",
    "| scenario | implementation | total | framework | data access | ratio of |",
    "|---|---|--:|--:|--:|---|",
  ];
  const mark = (said: string) => `*${said}*`;
  for (const s of r.split) lines.push(`| ${splitCells(r, s, escapeCell, mark).join(" | ")} |`);
  lines.push("", splitVerdictNote(r, mark), "");
  return lines;
}

/** The first section: the A/A lines, what they let this run tell apart, and whether it failed its precision check. */
export function resolvingPowerMarkdown(r: Results): string[] {
  const power = resolvingPower(r);
  if (!power) return [];
  return [
    "## This run's resolving power",
    "",
    ...(power.failed ? [`**⚠ ${power.failed}**`, ""] : []),
    power.about,
    "",
    ...power.lines.map((line) => (line.verdict === "biased" ? `- **${line.text}**` : `- ${line.text}`)),
    "",
    power.summary,
    "",
  ];
}

export function renderMarkdown(r: Results): string {
  const lines: string[] = [];
  lines.push(`# Benchmark results — ${r.machine.cpuModel}, ${r.startedAt.slice(0, 10)}`, "");
  lines.push(
    "Figures from one run on one machine: compare the ratios within this run, not absolute numbers across machines or runs.",
    "",
  );
  lines.push(...describeRun(r));
  const limits = limitsText(r);
  if (limits) lines.push(`- **Limits**: ${limits}`);
  lines.push("");
  if (isGrowthRun(r)) {
    lines.push(...growthMarkdown(r));
    for (const scale of scalesOf(r)) {
      const at = atScale(r, scale);
      lines.push(`# At scale ${scale} (${at.rows.orders} orders)`, "", ...measuredMarkdown(at));
    }
  } else {
    lines.push(...measuredMarkdown(r));
  }
  lines.push(...legends(r));
  lines.push(countsInstructions(r) ? INSTRUCTION_COLUMNS : COLUMNS, "");
  lines.push(...profilesMarkdown(r));
  return lines.join("\n");
}

/** What one scale measured: resolving power, the split, start-up, a table per scenario (a growth run: per scale). */
function measuredMarkdown(r: Results): string[] {
  return [
    ...resolvingPowerMarkdown(r),
    ...remoteNote(r),
    ...capacityMarkdown(r),
    ...curveMarkdown(r),
    ...splitTable(r),
    ...startupTable(r),
    ...(countsInstructions(r) ? instructionTables(r) : scenarioTables(r)),
  ];
}

function remoteNote(r: Results): string[] {
  if (!r.targets.some((t) => t.remote)) return [];
  const given = (r.options.targets as Array<{ name: string; url: string }>).map((t) => `${t.name}=${t.url}`);
  const what =
    "the bench did not start them, so there are no CPU, memory or PostgreSQL figures, no CPU-per-request ratios " +
    "and no check for other work on their machine; every ratio is throughput, verified first as always.";
  return [`**Servers measured where they run (--target ${given.join(", ")}):** ${what}`, ""];
}

function buildText(t: TargetInfo): string {
  if (!t.build) return "–";
  return t.build.ok ? (t.build.ms / 1000).toFixed(1) : "failed";
}

function startupTable(r: Results): string[] {
  const lines = ["## Start-up and memory", ""];
  lines.push("| implementation | role | start-up ms (spawn → first good /health) | idle RSS MB | build s |");
  lines.push("|---|---|--:|--:|--:|");
  for (const t of r.targets) {
    const startup = t.error ? `**${escapeCell(t.error)}**` : startupText(r, t);
    lines.push(`| ${t.name} | ${roleText(t)} | ${startup} | ${mb(t.idleRssBytes)} | ${buildText(t)} |`);
  }
  lines.push("");
  return lines;
}

/** One table per scenario and connection count (the count in the title where the run asked for several). */
function scenarioTables(r: Results): string[] {
  const lines: string[] = [];
  const asked = r.options.connections as number[];
  for (const scenario of r.scenarios) {
    const rows = r.summary.filter((s) => s.scenario === scenario.name);
    for (const connections of [...new Set(rows.map((s) => s.connections))]) {
      const count = asked.length > 1 || !asked.includes(connections) ? `, ${connections} connections` : "";
      lines.push(`## ${scenario.name} — ${scenario.title}${count}`, "");
      const others = runtimeBaselinesText(scenario);
      lines.push(`Baseline: ${scenario.baseline}${others ? `; each runtime's own: ${others}` : ""}.`, "");
      lines.push(header, rule);
      for (const row of rows.filter((s) => s.connections === connections)) {
        lines.push(tableRow(row, scenario.kind === "database", r.targets));
      }
      lines.push("");
    }
  }
  return lines;
}

/** What the marks in the tables mean, for the marks that appear. */
function legends(r: Results): string[] {
  const saturation = Math.round(Number(r.options.loadGeneratorSaturationThreshold ?? 0.9) * 100);
  const disturbance = Number(r.options.disturbanceCores ?? 0.25);
  const marks: Array<[boolean, string]> = [
    [
      r.summary.some((s) => s.belowRate),
      `${BELOW_RATE} Below 95% of the fixed rate asked for: the server could not keep up, ` +
        "and its latencies include the queue that built up.",
    ],
    [
      r.summary.some((s) => s.loadGeneratorSaturated),
      `${SATURATED} The load generator used at least ${saturation}% of its core in some repeat: ` +
        "that figure may be the load generator's limit rather than the server's, and its ratio understates the gap.",
    ],
    [
      r.summary.some((s) => s.beatsBaselineOnPostgres),
      `${PG_CHEAPER} Less PostgreSQL CPU per request than the raw baseline: ` +
        "the baseline is not the cheapest way to answer here, and ratios to it flatter this implementation.",
    ],
    [
      r.summary.some((s) => s.disturbed > 0),
      `${DISTURBED} Some repeat ran while other processes used ≥ ${disturbance} of a core ` +
        "(after the re-runs allowed): the machine was not quiet.",
    ],
  ];
  return marks.filter(([shown]) => shown).flatMap(([, text]) => [text, ""]);
}

const COLUMNS = [
  "Columns: req/s is the median over the repeats (min–max in brackets);",
  "× baseline is the ratio to Node's raw server (node-http, node-http-pg), which carries what the runtime changes as",
  "well as the framework's cost; runtime is what runs the server, and × own runtime's baseline the ratio, in the",
  "quoted metric, to the raw server of that runtime (node-http, bun-http, deno-http; node-http-pg, bun-http-pg):",
  "the framework's cost on its runtime (the same as × baseline on Node rows; – where the runtime has no baseline",
  "here); the ratios are geometric means of the ratios paired repeat by repeat with the baseline run next to it,",
  "with their 95% confidence interval (Student's t on the logarithms); the bold one is the one to quote",
  "(CPU per request when the load generator saturated); precision is that interval's half-width; latencies are the",
  "medians of each repeat's percentiles; CPU is the server's whole process tree as a share of one core;",
  "CPU µs/req is server CPU time per response, PG µs/req PostgreSQL's (all its processes; shown for database",
  "scenarios when PostgreSQL runs on this machine). A cell with any unexpected non-2xx or socket error is FAILED and",
  "not counted; a scenario that fails verification is never measured.",
].join(" ");
