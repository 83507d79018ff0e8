// pnpm bench --compare OLD [NEW]: reads two runs, compares them (../analysis/compare.ts), prints the comparison
// and writes compare.md and compare.html (../report/compare.ts).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "@api-ref/harness";
import { CompareRefused, compareRuns, type Run } from "../analysis/compare.ts";
import { isGrowthRun } from "../analysis/growth.ts";
import { compareHtml, compareMarkdown } from "../report/compare.ts";
import { timestampDir } from "../report/write.ts";
import { scalesOf } from "../results/scales.ts";
import type { Results } from "../results/schema.ts";

export const COMPARE_USAGE = `usage: pnpm bench --compare OLD [NEW] [--out DIR]

  OLD, NEW   a run's directory (holding results.json) or its results.json; without NEW, the most recent
             timestamped run under bench/results/ other than OLD
  --out DIR  where compare.md and compare.html are written (default: bench/results/compare-<timestamp>/)

Paths are relative to the directory pnpm bench was typed in. Exit code 0 with a report (even if slower), 2 on
bad input.`;

/** Reads a run from its directory or its results.json, refusing one that has no A/A line. */
export function loadRun(label: Run["label"], path: string, cwd: string): Run {
  const full = resolve(cwd, path);
  if (!existsSync(full)) throw new CompareRefused(`${label}: ${path} does not exist`);
  const file = statSync(full).isDirectory() ? join(full, "results.json") : full;
  let results: Results | undefined;
  try {
    results = JSON.parse(readFileSync(file, "utf8")) as Results;
  } catch {}
  if (!Array.isArray(results?.summary) || typeof results.startedAt !== "string") {
    throw new CompareRefused(`${label}: ${path} is not a results.json of pnpm bench, nor a directory holding one`);
  }
  // A growth run holds every scenario once per scale: the comparison's rows (scenario × connections × target) would mix
  // them. Its growth section is its own comparison; compare one-scale runs.
  if (isGrowthRun(results)) {
    throw new CompareRefused(
      `${label}: ${path} is a growth run (--scale ${scalesOf(results).join(",")}): its report compares its scales; ` +
        "--compare takes runs at one scale",
    );
  }
  if (!results.aa?.length) {
    throw new CompareRefused(
      `${label} has no A/A line (written before the bench measured one, or a --target run): ` +
        "re-run it with the current bench; comparisons across runs are only as good as the A/A lines of both runs " +
        `(${path})`,
    );
  }
  const dir = dirname(file);
  return { label, shown: relative(cwd, dir) || ".", dir, results };
}

/** A run directory's name as `timestampDir` makes it. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/;

/** The most recent timestamped run directory with a results.json under `root`, other than `except`. */
function latestRun(root: string, except: string): string | undefined {
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .filter((d) => TIMESTAMP.test(d) && resolve(root, d) !== except && existsSync(join(root, d, "results.json")))
    .sort()
    .map((d) => join(root, d))
    .at(-1);
}

/** `pnpm bench --compare …`: prints the comparison, writes compare.md and compare.html; returns the exit code. */
export async function compareCli(
  argv: string[],
  { cwd = process.env.INIT_CWD ?? process.cwd(), resultsRoot = join(REPO_ROOT, "bench", "results") } = {},
): Promise<number> {
  try {
    const parsed = parseCompareArgs(argv);
    const old = loadRun("OLD", parsed.old, cwd);
    const newPath = parsed.new ?? newestOther(old, cwd, resultsRoot);
    const comparison = compareRuns(old, loadRun("NEW", newPath, cwd));
    const out = parsed.out ? resolve(cwd, parsed.out) : join(resultsRoot, `compare-${timestampDir(new Date())}`);
    await mkdir(out, { recursive: true });
    const markdown = compareMarkdown(comparison);
    await writeFile(join(out, "compare.md"), markdown);
    await writeFile(join(out, "compare.html"), compareHtml(comparison));
    process.stdout.write(markdown);
    process.stderr.write(
      `wrote ${relative(cwd, join(out, "compare.md"))}\n      ${relative(cwd, join(out, "compare.html"))}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof CompareRefused)) throw error;
    process.stderr.write(`error: ${error.message}\n${error.usage ? `\n${COMPARE_USAGE}\n` : ""}`);
    return 2;
  }
}

/** Without NEW: the most recent run under the results directory other than OLD, said on stderr. */
function newestOther(old: Run, cwd: string, resultsRoot: string): string {
  const newPath = latestRun(resultsRoot, old.dir);
  const root = relative(cwd, resultsRoot);
  if (!newPath) throw new CompareRefused(`no other run under ${root} to compare OLD with: give NEW`);
  process.stderr.write(`compare: NEW is ${relative(cwd, newPath)}, the most recent run under ${root}\n`);
  return newPath;
}

/** The command line, refused as a usage error when it is not `--compare OLD [NEW] [--out DIR]`. */
function parseCompareArgs(argv: string[]) {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { compare: { type: "string" }, out: { type: "string" } },
      allowPositionals: true,
    });
    if (!values.compare || positionals.length > 1) throw new Error("--compare takes one run or two (OLD [NEW])");
    return { old: values.compare, new: positionals[0], out: values.out };
  } catch (error) {
    throw new CompareRefused((error as Error).message, true);
  }
}
