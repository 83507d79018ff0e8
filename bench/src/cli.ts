// pnpm bench — verifies, then measures, every registered implementation against the no-framework baselines and
// writes bench/results/<timestamp>/. Parse the command line, pick a mode, run it: one benchmark (modes/run.ts), the
// published claims' presets (--preset, --claims: modes/presets.ts), or a comparison of two runs (--compare).
import { extractPresetArgs, resolvePreset } from "./claims/cli.ts";
import { runPresets } from "./modes/presets.ts";
import { runOnce } from "./modes/run.ts";
import { parseOptions } from "./options/parse.ts";
import { USAGE } from "./options/table.ts";
import { UsageError } from "./options/types.ts";

const argv = process.argv.slice(2);

// --compare reads two finished runs and measures nothing (modes/compare.ts).
if (argv.some((arg) => arg === "--compare" || arg.startsWith("--compare="))) {
  const { compareCli } = await import("./modes/compare.ts");
  process.exit(await compareCli(argv));
}

/** What `parse` makes of the command line; a UsageError is one line and the usage on stderr, exit code 2. */
function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
}

const started = performance.now();
const split = parsed(() => extractPresetArgs(argv));
let status: number;
if (split.presets.length === 0) {
  const options = parsed(() => parseOptions(split.rest));
  if (options === "help") {
    console.log(USAGE);
    process.exit(0);
  }
  status = await runOnce(options, started);
} else {
  // Every preset is resolved (and its options checked) before anything runs.
  const runs = parsed(() => split.presets.map((id) => resolvePreset(id, split.rest)));
  status = await runPresets(runs, split.claims, started);
}
if (status !== 0) process.exit(status);
