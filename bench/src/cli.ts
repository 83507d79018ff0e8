// pnpm bench — verifies, then measures, every registered implementation against the no-framework baselines
// and writes bench/results/<timestamp>/. `pnpm bench --help` lists the options.
import { join } from "node:path";
import { ProvisionError } from "@api-ref/db/provision";
import { REPO_ROOT } from "@api-ref/harness";
import { type BenchOptions, estimateSeconds, parseOptions, USAGE, UsageError } from "./options.ts";
import { Progress } from "./progress.ts";
import { renderMarkdown } from "./report/markdown.ts";
import { timestampDir, writeReports } from "./report/write.ts";
import { runBench } from "./run.ts";
import { connectionsFor, scenarios } from "./scenarios.ts";
import { targetsOfScenario } from "./targets.ts";

let options: ReturnType<typeof parseOptions>;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
  process.exit(2);
}
if (options === "help") {
  console.log(USAGE);
  process.exit(0);
}

const bench: BenchOptions = options;
{
  // Every implementation on every scenario, plus the scenario's baselines, at each connection count and repeat.
  const plan = bench.scenarios.map((s) => ({
    targets: targetsOfScenario(bench, s).length,
    connections: connectionsFor(scenarios[s], bench.connections).length,
    ...(scenarios[s].minDurationS !== undefined ? { minDurationS: scenarios[s].minDurationS } : {}),
  }));
  const everyTarget = new Set(bench.scenarios.flatMap((s) => targetsOfScenario(bench, s))).size;
  const { min, max } = estimateSeconds(bench, plan, everyTarget);
  const minutes = (seconds: number) => `${Math.round(seconds / 60)} min`;
  process.stderr.write(
    `bench: estimated ${minutes(min)} at ${bench.repeats} repeat(s)${max > min ? `, up to ${minutes(max)} if cells need more repeats for ±${Math.round(bench.precision * 100)}% (at most ${bench.maxRepeats}${bench.budgetMinutes ? `, within the ${bench.budgetMinutes}-minute budget` : ""})` : ""}\n`,
  );
}
const started = performance.now();
const progress = new Progress();
const log = (message: string) => progress.log(message);
const what =
  bench.targets.length > 0 ? bench.targets.map((t) => `${t.name} at ${t.url}`) : bench.impls.map((i) => i.name);
log(
  `bench: ${what.join(", ")} × ${bench.scenarios.join(", ")} × ${bench.connections.join("/")} connections × ${bench.repeats}${bench.maxRepeats > bench.repeats ? `–${bench.maxRepeats}` : ""} repeat(s), ${bench.warmupS} s warm-up + ${bench.durationS} s each${bench.workers > 1 ? `, ${bench.workers} workers per server` : ""}${bench.smoke ? " (smoke)" : ""}`,
);
let results: Awaited<ReturnType<typeof runBench>>;
try {
  results = await runBench(bench, { progress, log });
} catch (error) {
  // No PostgreSQL to measure against: the reason in one line, not a stack trace.
  if (!(error instanceof ProvisionError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
}
const dir = bench.outDir ?? join(REPO_ROOT, "bench", "results", timestampDir(new Date(results.startedAt)));
const files = await writeReports(results, dir);

process.stdout.write(`\n${renderMarkdown(results)}\n`);
const failed = results.summary.filter((s) => s.status === "failed");
const unstarted = results.targets.filter((t) => t.error);
log(`wrote ${files.json}\n      ${files.markdown}\n      ${files.html}`);
log(`bench took ${Math.round((performance.now() - started) / 1000)} s`);
if (failed.length > 0 || unstarted.length > 0) {
  for (const t of unstarted) log(`FAILED: ${t.name}: ${t.error}`);
  for (const f of failed) log(`FAILED: ${f.scenario} on ${f.target}: ${f.failure}`);
  process.exit(1);
}
