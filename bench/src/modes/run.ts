// One benchmark run: its estimate, the line saying what it measures, the measurement (run.ts), its reports, and
// whether anything failed (exit status 1).
import { join } from "node:path";
import { ProvisionError } from "@api-ref/db/provision";
import { REPO_ROOT } from "@api-ref/harness";
import { LimitsUnavailable } from "../limits.ts";
import type { BenchOptions } from "../options/types.ts";
import { Progress } from "../progress.ts";
import { growthConsoleLines } from "../report/growth.ts";
import { renderMarkdown } from "../report/markdown.ts";
import { timestampDir, writeReports } from "../report/write.ts";
import type { Results } from "../results/schema.ts";
import { runBench } from "../run.ts";
import { CallgrindUnavailable } from "../runner/callgrind.ts";
import { estimateRun } from "../runner/cost.ts";
import { interleavesScales } from "../runner/interleave.ts";

const progress = new Progress();
export const log = (message: string) => progress.log(message);
export const minutes = (seconds: number) => `${Math.round(seconds / 60)} min`;

/** Measures one run and writes its reports; returns 1 when anything failed, else 0. */
export async function runOnce(bench: BenchOptions, started: number): Promise<number> {
  process.stderr.write(`${estimateLine(bench)}\n`);
  const { results, files, ok } = await measure(bench, bench.outDir);
  process.stdout.write(`\n${renderMarkdown(results)}\n`);
  for (const line of growthConsoleLines(results)) log(`growth: ${line}`);
  log(`wrote ${files.json}\n      ${files.markdown}\n      ${files.html}`);
  log(`bench took ${Math.round((performance.now() - started) / 1000)} s`);
  return ok ? 0 : 1;
}

/** How long the run is expected to take, at its least repeats and at its most. */
function estimateLine(bench: BenchOptions): string {
  const { min, max } = estimateRun(bench);
  const at = bench.rates ? "one run per rate" : `${bench.repeats} repeat(s)`;
  const budget = bench.budgetMinutes ? `, within the ${bench.budgetMinutes}-minute budget` : "";
  const more =
    max > min
      ? `, up to ${minutes(max)} if cells need more repeats for ±${Math.round(bench.precision * 100)}% ` +
        `(at most ${bench.maxRepeats}${budget})`
      : "";
  return `bench: estimated ${minutes(min)} at ${at}${bench.slo ? " and a capacity search" : ""}${more}`;
}

/** What the run measures, how often and how long, in one line. */
function planLine(bench: BenchOptions): string {
  const what =
    bench.targets.length > 0 ? bench.targets.map((t) => `${t.name} at ${t.url}`) : bench.impls.map((i) => i.name);
  const most = bench.maxRepeats > bench.repeats ? `–${bench.maxRepeats}` : "";
  const repeats = bench.rates ? "1 run per rate" : `${bench.repeats}${most} repeat(s)`;
  const warmup =
    bench.restart === "cell"
      ? `a fresh server per cell, ${Math.max(bench.warmupS, bench.settleS)} s warm-up`
      : `${bench.warmupS} s warm-up`;
  const plan = bench.instructions;
  const cell = plan
    ? `a fresh server under callgrind per cell, ${plan.warmupRequests} requests of warm-up + ${plan.rounds} × ` +
      `${plan.requests} counted`
    : `${warmup} + ${bench.durationS} s each`;
  const extras = [
    bench.workers > 1 ? `, ${bench.workers} workers per server` : "",
    bench.rates ? `, at offered rates ${bench.rates.join(", ")} req/s` : "",
    bench.slo ? `, then capacity at p${bench.slo.percentile}<${bench.slo.boundMs}ms` : "",
    bench.cpus !== undefined ? `, ${bench.cpus} CPU per server` : "",
    bench.memoryBytes !== undefined ? `, ${Math.round(bench.memoryBytes / 1048576)} MiB per server` : "",
    bench.scales.length > 1 ? `, at data scales ${bench.scales.join(", ")} (${scaleOrderText(bench)})` : "",
    bench.smoke ? " (smoke)" : "",
  ];
  const shape = `${bench.connections.join("/")} connections × ${repeats}`;
  return `bench: ${what.join(", ")} × ${bench.scenarios.join(", ")} × ${shape}, ${cell}${extras.join("")}`;
}

/** Runs one benchmark and writes its reports; returns its results, files and whether anything failed. */
export async function measure(bench: BenchOptions, dir: string | undefined) {
  log(planLine(bench));
  const results = await measured(bench);
  const out = dir ?? join(REPO_ROOT, "bench", "results", timestampDir(new Date(results.startedAt)));
  const files = await writeReports(results, out);
  const failed = results.summary.filter((s) => s.status === "failed");
  const unstarted = results.targets.filter((t) => t.error);
  for (const t of unstarted) log(`FAILED: ${t.name}: ${t.error}`);
  for (const f of failed) log(`FAILED: ${f.scenario} on ${f.target}: ${f.failure}`);
  const biased = reportAa(bench, results);
  const precise = bench.smoke || biased === 0;
  return { results, files, ok: failed.length === 0 && unstarted.length === 0 && precise };
}

/**
 * runBench's results; a machine that cannot apply --cpus/--memory or has no valgrind for --count instructions (exit
 * 2), or has no PostgreSQL (1): one line.
 */
async function measured(bench: BenchOptions): Promise<Results> {
  try {
    return await runBench(bench, { progress, log });
  } catch (error) {
    // --cpus/--memory on a machine that cannot apply them: refused, never run unlimited (a usage error, exit 2); the
    // same for --count instructions without valgrind.
    if (error instanceof LimitsUnavailable || error instanceof CallgrindUnavailable) {
      progress.done();
      process.stderr.write(`error: ${error.message}\n`);
      process.exit(2);
    }
    if (!(error instanceof ProvisionError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(1);
  }
}

/**
 * The A/A check: two copies of one server told apart means something other than the code decided the figures; a
 * smoke run's quarter-second cells decide nothing, so there it is a note. Returns how many lines were biased.
 */
function reportAa(bench: BenchOptions, results: Results): number {
  const biased = (results.aa ?? []).filter((line) => line.verdict === "biased");
  for (const line of biased) {
    const { value, low, high } = line.ratio;
    const ratio = `${line.twin} ÷ ${line.baseline} = ${value.toFixed(3)}× (${low.toFixed(3)}–${high.toFixed(3)})`;
    const verdict = bench.smoke ? " (a smoke run decides nothing)" : "; this run fails its precision check";
    log(
      `${bench.smoke ? "note" : "FAILED"}: A/A check on ${line.scenario} @${line.connections}: ${ratio} excludes 1: ` +
        `two copies of one server were told apart${verdict}`,
    );
  }
  return biased.length;
}

/** How a growth run measures its scales (runner/interleave.ts). */
const scaleOrderText = (bench: BenchOptions) =>
  interleavesScales(bench, bench.targets.length === 0)
    ? "each seeded, then measured round by round"
    : "each seeded, then measured one after the other";
