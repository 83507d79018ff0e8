// pnpm bench — verifies, then measures, every registered implementation against the no-framework baselines
// and writes bench/results/<timestamp>/. `pnpm bench --help` lists the options.
import { join } from "node:path";
import { REPO_ROOT } from "@api-ref/contract/implementations";
import { fitToBudget, parseOptions, USAGE, UsageError } from "./options.ts";
import { Progress } from "./progress.ts";
import { renderMarkdown } from "./report/markdown.ts";
import { timestampDir, writeReports } from "./report/write.ts";
import { runBench } from "./run.ts";
import { connectionsFor, type ScenarioName, scenarios } from "./scenarios.ts";
import { baselineFor } from "./targets.ts";

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

{
  // Every implementation on every scenario, plus each scenario's baseline, at each connection count and repeat.
  const { impls, connections, repeats } = options;
  const cellsOf = (s: ScenarioName) => (impls.length + 1) * connectionsFor(scenarios[s], connections).length * repeats;
  const cells = options.scenarios.reduce((n, s) => n + cellsOf(s), 0);
  // Scenarios with a minimum length (auth-login) cost it whatever the fit: counted apart.
  const fixed = options.scenarios.filter((s) => scenarios[s].minDurationS !== undefined);
  const fixedCells = fixed.reduce((n, s) => n + cellsOf(s), 0);
  const measuredSeconds = fixed.reduce((n, s) => n + cellsOf(s) * (scenarios[s].minDurationS ?? 0), 0);
  const baselines = new Set(options.scenarios.map((s) => baselineFor(scenarios[s].kind).name)).size;
  const fitted = fitToBudget(options, options.impls.length + baselines, cells - fixedCells, {
    cells: fixedCells,
    measuredSeconds,
  });
  if (fitted.durationS !== options.durationS) {
    process.stderr.write(
      `bench: ${cells} cells would not fit the ${options.budgetMinutes}-minute budget at ${options.warmupS} s + ${options.durationS} s each; using ${fitted.warmupS} s + ${fitted.durationS} s (--duration 5 --warmup 2 for the long cells, --budget to change it)\n`,
    );
  }
  options = fitted;
}
const started = performance.now();
const progress = new Progress();
const log = (message: string) => progress.log(message);
log(
  `bench: ${options.impls.map((i) => i.name).join(", ")} × ${options.scenarios.length} scenarios × ${options.connections.join("/")} connections × ${options.repeats} repeat(s), ${options.warmupS} s warm-up + ${options.durationS} s each${options.smoke ? " (smoke)" : ""}`,
);
const results = await runBench(options, { progress, log });
const dir = options.outDir ?? join(REPO_ROOT, "bench", "results", timestampDir(new Date(results.startedAt)));
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
