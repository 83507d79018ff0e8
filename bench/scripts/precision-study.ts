// The precision study (bench/results/precision-study/README.md): how precise each pairing design's ratios get
// per minute of run time on this machine, quiet and under a reproducible synthetic disturbance.
//
//   node scripts/precision-study.ts run [--out DIR] [--repeats N] [--duration S] [--warmup S] [--only NAME,…]
//   node scripts/precision-study.ts summarise [--out DIR]
//
// `run` runs `pnpm bench` once per design × condition (sequential and duet; quiet and --disturb 2) on the same
// implementations and scenarios, with a fixed number of repeats (no early stop, no budget), each into DIR/<name>/.
// `summarise` reads those results.json files and writes DIR/summary.md: for each ratio the study follows, its value
// and 95% half-width after every round, against the minutes the run had taken by then, and whether the designs
// agree where both are precise.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "@api-ref/harness";
import { countedCells, headlineOf, ratiosTo } from "../src/analysis/ratios.ts";
import type { Results } from "../src/results/schema.ts";
import type { ScenarioName } from "../src/scenarios/catalog.ts";
import { type Interval, median, spread } from "../src/stats.ts";

const CLI = join(REPO_ROOT, "bench", "src", "cli.ts");

/**
 * The runs of the study: each pairing design, quiet and disturbed; sequential also with a fresh server process per
 * cell (--restart cell); and a second run of each sequential design on a quiet machine, to see whether two runs of
 * one design agree within their intervals (an interval that a second run falls outside of says less than it claims).
 */
export const RUNS = [
  { name: "sequential-quiet", args: ["--pairing", "sequential", "--restart", "run"] },
  { name: "duet-quiet", args: ["--pairing", "duet"] },
  { name: "sequential-disturbed", args: ["--pairing", "sequential", "--restart", "run", "--disturb", "2"] },
  { name: "duet-disturbed", args: ["--pairing", "duet", "--disturb", "2"] },
  // The first duet design, each side free to use both cores: kept for the bias it showed (NestJS's helper threads).
  { name: "duet-unpinned-quiet", args: ["--pairing", "duet", "--no-pin"] },
  { name: "sequential-quiet-again", args: ["--pairing", "sequential", "--restart", "run"] },
  { name: "sequential-fresh-quiet", args: ["--pairing", "sequential", "--restart", "cell"] },
  { name: "sequential-fresh-quiet-again", args: ["--pairing", "sequential", "--restart", "cell"] },
  { name: "sequential-fresh-disturbed", args: ["--pairing", "sequential", "--restart", "cell", "--disturb", "2"] },
] as const;

/** Two runs of one design, made to be compared. */
const REPEATED = [
  ["sequential-quiet", "sequential-quiet-again"],
  ["sequential-fresh-quiet", "sequential-fresh-quiet-again"],
] as const;

/** The ratios the study follows: the A/A lines and the real pairs the issue names. */
export const RATIOS: ReadonlyArray<{ scenario: ScenarioName; target: string; baseline: string }> = [
  { scenario: "hello", target: "node-http~aa", baseline: "node-http" },
  { scenario: "hello", target: "express", baseline: "node-http" },
  { scenario: "hello", target: "fastify-zod", baseline: "node-http" },
  { scenario: "hello", target: "nestjs-fastify", baseline: "node-http" },
  { scenario: "user-by-id", target: "node-http-pg~aa", baseline: "node-http-pg" },
  { scenario: "user-by-id", target: "express", baseline: "node-http-prisma" },
  { scenario: "user-by-id", target: "node-http-prisma", baseline: "node-http-pg" },
];

const IMPLS = "express,fastify-zod,nestjs-fastify";
const SCENARIOS = "hello,user-by-id";

function run(out: string, repeats: number, durationS: number, warmupS: number, only: string[] | undefined) {
  for (const study of RUNS) {
    if (only && !only.includes(study.name)) continue;
    const dir = join(out, study.name);
    const args = [
      CLI,
      "--impl",
      IMPLS,
      "--scenario",
      SCENARIOS,
      "--repeats",
      String(repeats),
      "--max-repeats",
      String(repeats),
      "--duration",
      String(durationS),
      "--warmup",
      String(warmupS),
      ...study.args,
      "--out",
      dir,
    ];
    process.stderr.write(`\n== ${study.name}: node ${args.slice(1).join(" ")}\n`);
    // A run that fails its precision check still wrote its results: the study reads them all.
    const result = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
    if (!existsSync(join(dir, "results.json"))) {
      throw new Error(`${study.name} wrote no results (exit ${result.status ?? result.signal})`);
    }
  }
}

/** The interval of one followed ratio over the first `rounds` rounds, in the run's headline metric for it. */
function intervalAfter(results: Results, ratio: (typeof RATIOS)[number], rounds: number): Interval {
  const cells = results.cells.filter((c) => c.repeat <= rounds && !c.discarded);
  const own = countedCells(cells, ratio.scenario, connectionsOf(results), ratio.target);
  const base = countedCells(cells, ratio.scenario, connectionsOf(results), ratio.baseline);
  const { rps, cpu } = ratiosTo(cells, ratio.scenario, connectionsOf(results), own, ratio.baseline);
  // The figure the run itself quotes: CPU per request in duet, or where the load generator saturated.
  return headlineOf(own, base, rps, cpu).headline === "cpu-per-request" ? cpu : rps;
}

const connectionsOf = (results: Results) => (results.options.connections as number[])[0] ?? 100;

/**
 * Minutes a scenario's rounds had taken by the end of round `rounds` (re-runs of disturbed cells included), from its
 * first cell; its settling before that is the same for both designs but for the pairs (listed apart).
 */
function minutesAfter(results: Results, scenario: ScenarioName, rounds: number): number {
  const all = results.cells.filter((c) => c.scenario === scenario && c.startedAt);
  const start = Math.min(...all.map((c) => Date.parse(c.startedAt ?? "")));
  const upTo = all.filter((c) => c.repeat <= rounds);
  const end = Math.max(...upTo.map((c) => Date.parse(c.startedAt ?? "") + (c.wallS ?? 0) * 1000));
  return (end - start) / 60_000;
}

const roundsOf = (results: Results) => Math.max(...results.cells.map((c) => c.repeat));
const SCENARIOS_FOLLOWED = [...new Set(RATIOS.map((r) => r.scenario))];

const pct = (i: Interval) => (Number.isFinite(i.halfWidth) ? `±${(i.halfWidth * 100).toFixed(1)}%` : "–");
const fmt = (i: Interval) =>
  Number.isFinite(i.value)
    ? `${i.value.toFixed(3)} (${i.low.toFixed(3)}–${i.high.toFixed(3)})${Number.isFinite(i.halfWidth) ? `, ${pct(i)}` : ""}`
    : "–";

function summarise(out: string): string {
  const loaded = RUNS.flatMap((study) => {
    const file = join(out, study.name, "results.json");
    return existsSync(file) ? [{ study, results: JSON.parse(readFileSync(file, "utf8")) as Results }] : [];
  });
  if (loaded.length === 0) {
    process.stderr.write(
      `error: no study run in ${out} (expected ${RUNS.map((r) => `${r.name}/results.json`).join(", ")})\n`,
    );
    process.exit(2);
  }
  const lines: string[] = [
    "# Precision study — summary (generated by `node scripts/precision-study.ts summarise`)",
    "",
    "| run | started | load average at start | rounds | whole run, minutes | measuring, minutes per scenario | disturbed cells re-run | pairing | disturbance |",
    "|---|---|--:|--:|--:|---|--:|---|---|",
  ];
  for (const { study, results } of loaded) {
    const rounds = roundsOf(results);
    const whole = (Date.parse(results.finishedAt) - Date.parse(results.startedAt)) / 60_000;
    const perScenario = SCENARIOS_FOLLOWED.map((s) => `${s} ${minutesAfter(results, s, rounds).toFixed(1)}`);
    lines.push(
      `| ${study.name} | ${results.startedAt.slice(0, 16).replace("T", " ")} | ${results.machine.loadAverage1m.toFixed(2)} | ${rounds} | ${whole.toFixed(1)} | ${perScenario.join(", ")} | ${results.cells.filter((c) => c.discarded).length} | ${results.pairing ?? "sequential"} | ${results.disturbance ? `${results.disturbance.processes} hogs` : "none"} |`,
    );
  }
  lines.push("", "## Each ratio at the end of each run (95% interval, half-width)", "");
  lines.push(`| ratio | ${loaded.map((l) => l.study.name).join(" | ")} |`);
  lines.push(`|---|${loaded.map(() => "--:").join("|")}|`);
  for (const ratio of RATIOS) {
    const cells = loaded.map(({ results }) => {
      return fmt(intervalAfter(results, ratio, roundsOf(results)));
    });
    lines.push(`| ${ratio.scenario}: ${ratio.target} ÷ ${ratio.baseline} | ${cells.join(" | ")} |`);
  }
  lines.push("", "## Half-width against run time", "");
  lines.push(
    "Each cell: the ratio's 95% half-width after that many rounds; the minutes row, what that scenario's rounds had taken by then (from its first cell; re-runs of disturbed cells included).",
  );
  for (const { study, results } of loaded) {
    const rounds = roundsOf(results);
    lines.push("", `### ${study.name}`, "");
    const header = Array.from({ length: rounds - 1 }, (_, i) => `${i + 2} rounds`);
    lines.push(`| ratio | ${header.join(" | ")} |`, `|---|${header.map(() => "--:").join("|")}|`);
    for (const scenario of SCENARIOS_FOLLOWED) {
      const minutes = Array.from({ length: rounds - 1 }, (_, i) => minutesAfter(results, scenario, i + 2).toFixed(1));
      lines.push(`| *${scenario}: minutes* | ${minutes.join(" | ")} |`);
      for (const ratio of RATIOS.filter((r) => r.scenario === scenario)) {
        const widths = Array.from({ length: rounds - 1 }, (_, i) => pct(intervalAfter(results, ratio, i + 2)));
        lines.push(`| ${ratio.scenario}: ${ratio.target} ÷ ${ratio.baseline} | ${widths.join(" | ")} |`);
      }
    }
  }
  lines.push("", "## Were both sides saturated? (duet)", "");
  lines.push(
    "Per duet run and scenario, over every cell: the share of its quota a side's group used (median, lowest) and its load generator's CPU (median, highest), in cores.",
    "",
    "| run | scenario | quota | quota used, median (lowest) | load generator CPU, median (highest) | PostgreSQL backends per side |",
    "|---|---|--:|--:|--:|--:|",
  );
  for (const { study, results } of loaded.filter((l) => l.results.pairing === "duet")) {
    for (const scenario of SCENARIOS_FOLLOWED) {
      const cells = results.cells.filter((c) => c.scenario === scenario && c.group);
      const used = cells.map((c) => c.group?.usedShare ?? Number.NaN);
      const loadgen = cells.map((c) => c.loadGenerator?.cpuCores ?? Number.NaN);
      const backends = spread(cells.map((c) => c.group?.backends ?? Number.NaN));
      lines.push(
        `| ${study.name} | ${scenario} | ${cells[0]?.group?.quotaCores ?? "–"} | ${median(used).toFixed(2)} (${Math.min(...used).toFixed(2)}) | ${median(loadgen).toFixed(2)} (${Math.max(...loadgen).toFixed(2)}) | ${backends.median} |`,
      );
    }
  }
  lines.push("", "## Do the designs agree?", "");
  lines.push(
    "Per ratio and condition: the sequential and the duet figure, and whether their intervals overlap (a duet figure outside the sequential one's interval, and the reverse, is a bias to explain).",
    "",
    "| ratio | condition | sequential | duet | intervals overlap |",
    "|---|---|--:|--:|---|",
  );
  for (const ratio of RATIOS) {
    for (const condition of ["quiet", "disturbed"]) {
      const of = (design: string) => loaded.find((l) => l.study.name === `${design}-${condition}`)?.results;
      const [seq, duet] = [of("sequential"), of("duet")];
      if (!seq || !duet) continue;
      const last = (r: Results) => intervalAfter(r, ratio, roundsOf(r));
      const [a, b] = [last(seq), last(duet)];
      const overlap = a.low <= b.high && b.low <= a.high ? "yes" : "**no**";
      lines.push(
        `| ${ratio.scenario}: ${ratio.target} ÷ ${ratio.baseline} | ${condition} | ${fmt(a)} | ${fmt(b)} | ${overlap} |`,
      );
    }
  }
  lines.push(...processVariation(loaded), ...runsAgree(loaded));
  return `${lines.join("\n")}\n`;
}

type Loaded = Array<{ study: (typeof RUNS)[number]; results: Results }>;

/** The standard deviation of a ratio's per-round logarithms: how much one pair of cells differs from the next. */
function pairSpread(results: Results, ratio: (typeof RATIOS)[number]): number {
  const rounds = roundsOf(results);
  const interval = intervalAfter(results, ratio, rounds);
  if (!Number.isFinite(interval.halfWidth) || interval.n < 2) return Number.NaN;
  // The half-width is t × sd / √n on the logarithms: back out the sd.
  return (Math.log(interval.high / interval.value) * Math.sqrt(interval.n)) / tQuantile(interval.n - 1);
}

/** Student's t, two-sided 95%, for the pair counts a study run has. */
function tQuantile(df: number): number {
  const table = [Number.NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179];
  return table[df] ?? 1.96 + 2.4 / df;
}

/**
 * Process to process: the spread of one pair of cells to the next, per design. A fresh process per cell adds the
 * process-to-process variation to every pair; where that spread is no larger than with one process per run, the
 * processes differ little, and where it is larger, one process per run hides that variation from its interval.
 */
function processVariation(loaded: Loaded): string[] {
  const runs = loaded.filter((l) => l.results.pairing !== "duet");
  if (!runs.some((l) => l.study.name.includes("fresh"))) return [];
  const lines = [
    "",
    "## Process to process (sequential)",
    "",
    "Per run, the standard deviation of each ratio's per-round logarithms (≈ the relative spread of one pair of cells; the interval's half-width is t × this ÷ √rounds). Runs with a fresh process per cell carry the process-to-process variation in every pair; runs with one process per run do not, and their A/A twins are two fixed processes.",
    "",
    `| ratio | ${runs.map((l) => l.study.name).join(" | ")} |`,
    `|---|${runs.map(() => "--:").join("|")}|`,
  ];
  for (const ratio of RATIOS) {
    const sds = runs.map(({ results }) => {
      const sd = pairSpread(results, ratio);
      return Number.isFinite(sd) ? `${(sd * 100).toFixed(1)}%` : "–";
    });
    lines.push(`| ${ratio.scenario}: ${ratio.target} ÷ ${ratio.baseline} | ${sds.join(" | ")} |`);
  }
  return lines;
}

/**
 * Do two runs of one design agree? Each ratio's two figures and whether they are within their combined 95% margin
 * (|ln a − ln b| ≤ √(h_a² + h_b²), h the half-widths in logarithms): two honest intervals disagree so about one
 * time in twenty; more often, and the intervals claim more than the design delivers.
 */
function runsAgree(loaded: Loaded): string[] {
  const lines: string[] = [];
  for (const [first, second] of REPEATED) {
    const a = loaded.find((l) => l.study.name === first)?.results;
    const b = loaded.find((l) => l.study.name === second)?.results;
    if (!a || !b) continue;
    if (lines.length === 0) {
      lines.push(
        "",
        "## Do two runs of one design agree?",
        "",
        "Each ratio in two runs of the same design on a quiet machine, and whether they are within their combined 95% margin (|ln a − ln b| ≤ √(h_a² + h_b²), h each half-width in logarithms). Two honest intervals miss so about one time in twenty.",
        "",
        "| ratio | first run | second run | within the combined margin |",
        "|---|--:|--:|---|",
      );
    }
    for (const ratio of RATIOS) {
      const [x, y] = [intervalAfter(a, ratio, roundsOf(a)), intervalAfter(b, ratio, roundsOf(b))];
      const margin = Math.hypot(Math.log(x.high / x.value), Math.log(y.high / y.value));
      const agree = Math.abs(Math.log(x.value / y.value)) <= margin ? "yes" : "**no**";
      lines.push(
        `| ${ratio.scenario}: ${ratio.target} ÷ ${ratio.baseline} | ${first}: ${fmt(x)} | ${second}: ${fmt(y)} | ${agree} |`,
      );
    }
  }
  return lines;
}

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    out: { type: "string" },
    repeats: { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    only: { type: "string" },
  },
});
const out = resolve(
  process.env.INIT_CWD ?? process.cwd(),
  values.out ?? join(REPO_ROOT, "bench", "results", "precision-study"),
);
const command = positionals[0];
if (command === "run") {
  run(
    out,
    Number(values.repeats ?? 6),
    Number(values.duration ?? 3),
    Number(values.warmup ?? 1),
    values.only?.split(","),
  );
  writeFileSync(join(out, "summary.md"), summarise(out));
} else if (command === "summarise") {
  const text = summarise(out);
  writeFileSync(join(out, "summary.md"), text);
  process.stdout.write(text);
} else {
  process.stderr.write(
    "usage: node scripts/precision-study.ts run [--out DIR] [--repeats N] [--duration S] [--warmup S] [--only NAME,…]\n       node scripts/precision-study.ts summarise [--out DIR]\n",
  );
  process.exit(2);
}
