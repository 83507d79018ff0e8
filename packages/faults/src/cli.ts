// pnpm test:faults [--short | --long] [--impl a,b] [--fault f,g] [...] [vitest options]
// Resolves the options into the suite's settings and runs vitest with the faults config (not part of `pnpm test`).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseCommandLine } from "@api-ref/harness";
import { FAULTS, parseCli, usage } from "./options.ts";

const { settings, vitestArgs } = parseCommandLine(
  usage,
  () => parseCli(process.argv.slice(2)),
  (parsed) => parsed.help,
);
const config = fileURLToPath(new URL("../vitest.faults.config.ts", import.meta.url));
// --reporter on the command line replaces the configured reporters: keep the table whatever else is asked for.
const reporters = vitestArgs.some((a) => a === "--reporter" || a.startsWith("--reporter="))
  ? [`--reporter=${fileURLToPath(new URL("./report/table-reporter.ts", import.meta.url))}`]
  : [];
// Only the files of the selected faults (a file with no implementation to run would have no test at all).
const files = settings.faults.length === FAULTS.length ? [] : settings.faults.map((f) => `test/${f}.faults.test.ts`);
const started = Date.now();
const result = spawnSync("vitest", ["run", "--config", config, ...reporters, ...files, ...vitestArgs], {
  stdio: "inherit",
  env: { ...process.env, FAULTS_SETTINGS: JSON.stringify(settings) },
});
process.stderr.write(`faults: ${settings.mode} mode took ${Math.round((Date.now() - started) / 1000)} s\n`);
process.exit(result.status ?? 1);
