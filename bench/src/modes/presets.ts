// --preset and --claims: the published claims' setups, one run each, each ending with "claimed vs measured here";
// --claims adds one page answering all the articles (claims.md, claims.html).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO_ROOT } from "@api-ref/harness";
import { addClaims, claimsPage, type PresetRun } from "../claims/cli.ts";
import { claimsMarkdown } from "../claims/table.ts";
import { renderMarkdown } from "../report/markdown.ts";
import { timestampDir } from "../report/write.ts";
import { estimateRun } from "../runner/cost.ts";
import { log, measure, minutes } from "./run.ts";

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Runs every preset in turn (each in a directory of its own when there are several); 1 when any failed, else 0. */
export async function runPresets(runs: PresetRun[], claims: boolean, started: number): Promise<number> {
  const estimates = runs.map((r) => estimateRun(r.options).min);
  const root =
    runs[0]?.options.outDir ??
    join(REPO_ROOT, "bench", "results", `${claims ? "claims-" : ""}${timestampDir(new Date())}`);
  const each = runs.map((r, i) => `  ${r.preset.id}: ~${minutes(estimates[i] as number)}`).join("\n");
  process.stderr.write(
    `bench: ${runs.length} preset(s), estimated ${minutes(sum(estimates))}${claims ? " in all" : ""}:\n${each}\n`,
  );
  let ok = true;
  const tables = [];
  for (const [i, run] of runs.entries()) {
    log(`preset ${run.preset.id} (${i + 1}/${runs.length}): ${run.claim.article}`);
    for (const line of run.notes) log(`  ${line}`);
    const measured = await measure(run.options, runs.length > 1 ? join(root, run.preset.id) : root);
    ok &&= measured.ok;
    const table = await addClaims(run, measured.results, measured.files);
    tables.push({ table, preset: run.preset });
    if (runs.length === 1) {
      process.stdout.write(`\n${renderMarkdown(measured.results)}\n${claimsMarkdown(table, run.preset).join("\n")}\n`);
    }
    log(`wrote ${measured.files.markdown}\n      ${measured.files.html}`);
    const elapsed = (performance.now() - started) / 1000;
    const left = sum(estimates.slice(i + 1)) * (elapsed / sum(estimates.slice(0, i + 1)));
    if (i + 1 < runs.length) log(`${Math.round(elapsed / 60)} min so far; about ${minutes(left)} left`);
  }
  if (claims) {
    const page = claimsPage(tables, runs[0]?.options.smoke ?? false);
    await writeFile(join(root, "claims.md"), page.markdown);
    await writeFile(join(root, "claims.html"), page.html);
    process.stdout.write(`\n${page.markdown}\n`);
    log(`wrote ${join(root, "claims.md")}\n      ${join(root, "claims.html")}`);
  }
  log(`bench took ${Math.round((performance.now() - started) / 1000)} s`);
  return ok ? 0 : 1;
}
