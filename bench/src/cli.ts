// pnpm bench — verifies, then measures, every registered implementation against the no-framework baselines
// and writes bench/results/<timestamp>/. `pnpm bench --help` lists the options; --preset and --claims run the
// published claims' setups (src/claims/).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ProvisionError } from "@api-ref/db/provision";
import { REPO_ROOT } from "@api-ref/harness";
import { addClaims, claimsPage, extractPresetArgs, type PresetRun, resolvePreset } from "./claims/cli.ts";
import { claimsMarkdown } from "./claims/table.ts";
import { LimitsUnavailable } from "./limits.ts";
import { type BenchOptions, estimateSeconds, parseOptions, USAGE, UsageError } from "./options.ts";
import { Progress } from "./progress.ts";
import { renderMarkdown } from "./report/markdown.ts";
import { timestampDir, writeReports } from "./report/write.ts";
import type { Results } from "./results.ts";
import { runBench } from "./run.ts";
import { RESTART_OVERHEAD_S } from "./runner/restart.ts";
import { measuredSeconds, plannedCellsPerTarget } from "./runner/scenario.ts";
import { connectionsFor, scenarios } from "./scenarios.ts";
import { measurementsPerRound, targetsOfScenario } from "./targets.ts";

// --compare reads two finished runs and measures nothing (src/compare.ts).
if (process.argv.some((arg) => arg === "--compare" || arg.startsWith("--compare="))) {
  const { compareCli } = await import("./compare.ts");
  process.exit(await compareCli(process.argv.slice(2)));
}

function usageError(message: string): never {
  process.stderr.write(`error: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

/** How long a run is expected to take, in seconds (at its least repeats, and at its most). */
function estimate(bench: BenchOptions) {
  const plan = bench.scenarios.map((s) => ({
    targets: measurementsPerRound(bench, s),
    // Every target settles once per scenario, in duet two at a time; with --restart cell in every cell.
    ...(bench.restart === "cell"
      ? { settleS: bench.settleS, restartS: RESTART_OVERHEAD_S }
      : { settleS: (targetsOfScenario(bench, s).length * bench.settleS) / (bench.pairing === "duet" ? 2 : 1) }),
    connections: connectionsFor(scenarios[s], bench.connections).length,
    durationS: measuredSeconds(s, bench),
  }));
  const everyTarget = new Set(bench.scenarios.flatMap((s) => targetsOfScenario(bench, s))).size;
  // A ramp runs one cell per rate instead of the repeats; --slo adds its probes (about a dozen) to them.
  const perTarget = plannedCellsPerTarget(bench);
  const cells = bench.rates
    ? { repeats: perTarget, maxRepeats: perTarget }
    : { repeats: perTarget, maxRepeats: bench.maxRepeats + perTarget - bench.repeats };
  return estimateSeconds({ ...bench, ...cells }, plan, everyTarget);
}
const minutes = (seconds: number) => `${Math.round(seconds / 60)} min`;

const progress = new Progress();
const log = (message: string) => progress.log(message);

/** Runs one benchmark and writes its reports; returns its results, files and whether anything failed. */
async function measure(bench: BenchOptions, dir: string | undefined) {
  const what =
    bench.targets.length > 0 ? bench.targets.map((t) => `${t.name} at ${t.url}`) : bench.impls.map((i) => i.name);
  log(
    `bench: ${what.join(", ")} × ${bench.scenarios.join(", ")} × ${bench.connections.join("/")} connections × ${bench.rates ? "1 run per rate" : `${bench.repeats}${bench.maxRepeats > bench.repeats ? `–${bench.maxRepeats}` : ""} repeat(s)`}, ${bench.restart === "cell" ? `a fresh server per cell, ${Math.max(bench.warmupS, bench.settleS)} s warm-up` : `${bench.warmupS} s warm-up`} + ${bench.durationS} s each${bench.workers > 1 ? `, ${bench.workers} workers per server` : ""}${bench.rates ? `, at offered rates ${bench.rates.join(", ")} req/s` : ""}${bench.slo ? `, then capacity at p${bench.slo.percentile}<${bench.slo.boundMs}ms` : ""}${bench.cpus !== undefined ? `, ${bench.cpus} CPU per server` : ""}${bench.memoryBytes !== undefined ? `, ${Math.round(bench.memoryBytes / 1048576)} MiB per server` : ""}${bench.smoke ? " (smoke)" : ""}`,
  );
  let results: Results;
  try {
    results = await runBench(bench, { progress, log });
  } catch (error) {
    // --cpus/--memory on a machine that cannot apply them: refused, never run unlimited (a usage error, exit 2).
    if (error instanceof LimitsUnavailable) {
      progress.done();
      process.stderr.write(`error: ${error.message}\n`);
      process.exit(2);
    }
    // No PostgreSQL to measure against: the reason in one line, not a stack trace.
    if (!(error instanceof ProvisionError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(1);
  }
  const out = dir ?? join(REPO_ROOT, "bench", "results", timestampDir(new Date(results.startedAt)));
  const files = await writeReports(results, out);
  const failed = results.summary.filter((s) => s.status === "failed");
  const unstarted = results.targets.filter((t) => t.error);
  for (const t of unstarted) log(`FAILED: ${t.name}: ${t.error}`);
  for (const f of failed) log(`FAILED: ${f.scenario} on ${f.target}: ${f.failure}`);
  // The A/A check: two copies of one server told apart means something other than the code decided the figures.
  // A smoke run's quarter-second cells decide nothing, so there it is reported, not failed.
  const biased = (results.aa ?? []).filter((line) => line.verdict === "biased");
  for (const line of biased) {
    const { value, low, high } = line.ratio;
    log(
      `${bench.smoke ? "note" : "FAILED"}: A/A check on ${line.scenario} @${line.connections}: ${line.twin} ÷ ${line.baseline} = ${value.toFixed(3)}× (${low.toFixed(3)}–${high.toFixed(3)}) excludes 1: two copies of one server were told apart${bench.smoke ? " (a smoke run decides nothing)" : "; this run fails its precision check"}`,
    );
  }
  const precise = bench.smoke || biased.length === 0;
  return { results, files, ok: failed.length === 0 && unstarted.length === 0 && precise };
}

const started = performance.now();
const argv = process.argv.slice(2);
let split: ReturnType<typeof extractPresetArgs>;
try {
  split = extractPresetArgs(argv);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  usageError(error.message);
}

if (split.presets.length === 0) {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(split.rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    usageError(error.message);
  }
  if (options === "help") {
    console.log(USAGE);
    process.exit(0);
  }
  const bench: BenchOptions = options;
  const { min, max } = estimate(bench);
  process.stderr.write(
    `bench: estimated ${minutes(min)} at ${bench.rates ? "one run per rate" : `${bench.repeats} repeat(s)`}${bench.slo ? " and a capacity search" : ""}${max > min ? `, up to ${minutes(max)} if cells need more repeats for ±${Math.round(bench.precision * 100)}% (at most ${bench.maxRepeats}${bench.budgetMinutes ? `, within the ${bench.budgetMinutes}-minute budget` : ""})` : ""}\n`,
  );
  const { results, files, ok } = await measure(bench, bench.outDir);
  process.stdout.write(`\n${renderMarkdown(results)}\n`);
  log(`wrote ${files.json}\n      ${files.markdown}\n      ${files.html}`);
  log(`bench took ${Math.round((performance.now() - started) / 1000)} s`);
  if (!ok) process.exit(1);
} else {
  // Every preset is resolved (and its options checked) before anything runs.
  let runs: PresetRun[];
  try {
    runs = split.presets.map((id) => resolvePreset(id, split.rest));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    usageError(error.message);
  }
  const estimates = runs.map((r) => estimate(r.options).min);
  const total = estimates.reduce((a, b) => a + b, 0);
  const root =
    runs[0]?.options.outDir ??
    join(REPO_ROOT, "bench", "results", `${split.claims ? "claims-" : ""}${timestampDir(new Date())}`);
  process.stderr.write(
    `bench: ${runs.length} preset(s), estimated ${minutes(total)}${split.claims ? " in all" : ""}:\n${runs.map((r, i) => `  ${r.preset.id}: ~${minutes(estimates[i] as number)}`).join("\n")}\n`,
  );
  let ok = true;
  const tables = [];
  for (const [i, run] of runs.entries()) {
    log(`preset ${run.preset.id} (${i + 1}/${runs.length}): ${run.claim.article}`);
    for (const line of run.notes) log(`  ${line}`);
    const dir = runs.length > 1 ? join(root, run.preset.id) : root;
    const measured = await measure(run.options, dir);
    ok &&= measured.ok;
    const table = await addClaims(run, measured.results, measured.files);
    tables.push({ table, preset: run.preset });
    if (runs.length === 1) {
      process.stdout.write(`\n${renderMarkdown(measured.results)}\n${claimsMarkdown(table, run.preset).join("\n")}\n`);
    }
    log(`wrote ${measured.files.markdown}\n      ${measured.files.html}`);
    const elapsed = (performance.now() - started) / 1000;
    const done = estimates.slice(0, i + 1).reduce((a, b) => a + b, 0);
    const left = estimates.slice(i + 1).reduce((a, b) => a + b, 0) * (elapsed / done);
    if (i + 1 < runs.length) log(`${Math.round(elapsed / 60)} min so far; about ${minutes(left)} left`);
  }
  if (split.claims) {
    const page = claimsPage(tables, runs[0]?.options.smoke ?? false);
    await writeFile(join(root, "claims.md"), page.markdown);
    await writeFile(join(root, "claims.html"), page.html);
    process.stdout.write(`\n${page.markdown}\n`);
    log(`wrote ${join(root, "claims.md")}\n      ${join(root, "claims.html")}`);
  }
  log(`bench took ${Math.round((performance.now() - started) / 1000)} s`);
  if (!ok) process.exit(1);
}
