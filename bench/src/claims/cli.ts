// --preset and --claims on the command line: which presets to run, each resolved to checked BenchOptions with
// what it changed from the article's setup and which explicit options overrode it; and the one page of --claims.
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { restartOf } from "../options/pairing.ts";
import { parseOptions } from "../options/parse.ts";
import { type BenchOptions, UsageError } from "../options/types.ts";
import type { writeReports } from "../report/write.ts";
import type { Results } from "../results/schema.ts";
import { claimsChart } from "./chart.ts";
import { loadClaims, PRESET_IDS, type Preset, type PublishedClaim, presetArgv, presetById } from "./presets.ts";
import { type ClaimsTable, claimsHtml, claimsMarkdown, claimsTable } from "./table.ts";
import { VERDICTS, type Verdict, WIDE } from "./verdict.ts";

export interface PresetRun {
  preset: Preset;
  claim: PublishedClaim;
  options: BenchOptions;
  /** What the run changed from the article's setup and which explicit options won, to print before it runs. */
  notes: string[];
}

/** Takes --preset ID and --claims out of argv; the rest is ordinary options. */
export function extractPresetArgs(argv: readonly string[]): { presets: string[]; claims: boolean; rest: string[] } {
  const rest: string[] = [];
  let preset: string | undefined;
  let claims = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--claims") claims = true;
    else if (arg === "--preset" || arg.startsWith("--preset=")) {
      const value = arg === "--preset" ? argv[++i] : arg.slice("--preset=".length);
      if (value === undefined || value === "" || value.startsWith("--")) {
        throw new UsageError(`--preset needs an id: ${PRESET_IDS.join(", ")}`);
      }
      if (preset !== undefined) throw new UsageError("--preset is given twice; --claims runs them all");
      preset = value;
    } else rest.push(arg);
  }
  if (claims && preset !== undefined) throw new UsageError("--claims runs every preset: leave out --preset");
  if (preset !== undefined && !presetById(preset)) {
    throw new UsageError(`unknown preset "${preset}"; known: ${PRESET_IDS.join(", ")}`);
  }
  return { presets: claims ? [...PRESET_IDS] : preset ? [preset] : [], claims, rest };
}

/**
 * A smoke run's fixed-rate steps: a tenth of the preset's. Its servers saturate far below the preset's rates on the
 * scrypt routes (1–2 hashes a second under 0.5 CPU), and a step's backlog is worked off before the next: at the
 * preset's rates each quarter-second step left tens of seconds of queue, most of a CI claims smoke.
 */
export const smokeRates = (rates: readonly number[]) => [...new Set(rates.map((r) => Math.max(1, Math.round(r / 10))))];

/** A preset as checked options: its own, then the explicit ones (which win), then its option fields. */
export function resolvePreset(id: string, userArgv: readonly string[], claims = loadClaims()): PresetRun {
  const preset = presetById(id);
  if (!preset) throw new UsageError(`unknown preset "${id}"; known: ${PRESET_IDS.join(", ")}`);
  const claim = claims.find((c) => c.id === id);
  if (!claim) throw new UsageError(`preset ${id} has no claim in bench/claims/published-claims.json`);
  const { argv, overridden } = presetArgv(preset, userArgv);
  const parsed = parseOptions(argv);
  if (parsed === "help") throw new UsageError("--help cannot be combined with --preset or --claims");
  // Smoke sets its own cell lengths and connections: the preset's changes to those do not apply.
  const notes = parsed.smoke
    ? preset.changes.filter((c) => !c.startsWith("30 s ×") && !/connections →/.test(c))
    : [...preset.changes];
  const options: BenchOptions = { ...parsed };
  const fields = preset.fields ?? {};
  // Explicit --rate / --cpus / --memory (where this build has them) win over the preset's fields.
  const given = new Set(userArgv.filter((a) => a.startsWith("--")).map((a) => a.slice(2).split("=")[0]));
  const smokeRated = parsed.smoke && fields.rates !== undefined && !given.has("rate");
  if (fields.rates && !given.has("rate")) options.rates = smokeRated ? smokeRates(fields.rates) : fields.rates;
  if (fields.cpus !== undefined && !given.has("cpus")) options.cpus = fields.cpus;
  if (fields.memoryBytes !== undefined && !given.has("memory")) options.memoryBytes = fields.memoryBytes;
  // How the cells restart, decided again by parseOptions' rule now that the preset's fields are in (a rate list keeps
  // one process per server).
  options.restart = restartOf(given.has("restart") ? options.restart : undefined, {
    smoke: options.smoke,
    duet: options.pairing === "duet",
    rates: options.rates !== undefined,
    slo: options.slo !== undefined,
    profile: options.profile,
    remote: options.targets.length > 0,
  });
  if (parsed.smoke) notes.push("--smoke: cells of seconds, the preset's lengths and connections left out");
  if (smokeRated) {
    notes.push(`--smoke: offered rates a tenth of the preset's (${options.rates?.join(", ")} requests/s)`);
  }
  for (const name of overridden) notes.push(`--${name} given explicitly: it wins over the preset's`);
  return { preset, claim, options, notes };
}

/** How the page's summary counts each verdict: "7 hold, 4 in direction only, …". */
const TALLIED: Record<Verdict, string> = {
  holds: "hold",
  "holds in direction only": "in direction only",
  "does not hold": "do not hold",
  "can't tell": "can't tell",
  "not measured here": "not measured here",
};

const PAGE_CSS = [
  "body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;margin:1em 0}",
  "td,th{border:1px solid #ccc;padding:.3em .5em;vertical-align:top}td.n{text-align:right;white-space:nowrap}",
  "small{color:#555;font-weight:normal}.note{color:#555}svg.chart{display:block;margin:1em 0;font-size:11px}",
  "svg .chart-title,svg .article{font-weight:600}svg .tick{fill:#666}",
].join("");

/** The --claims page: one chart of every figure (HTML), then one section per article with its table and verdicts. */
export function claimsPage(runs: Array<{ table: ClaimsTable; preset: Preset }>, smoke: boolean) {
  const rows = runs.flatMap((r) => r.table.rows);
  const tally = VERDICTS.map((v) => `${rows.filter((row) => row.verdict === v).length} ${TALLIED[v]}`).join(", ");
  const intro = [
    "Five published benchmark articles, each re-run here as the nearest setup one machine allows " +
      "(`pnpm bench --claims`). Each section says what changed from the article's setup, then compares the " +
      "article's ratios between frameworks with ours from the same run (95% intervals); every preset's full report " +
      "is in its own directory beside this page.",
    smoke
      ? "**Smoke run:** cells of a quarter second (the scrypt routes a second), two repeats: the tables show that " +
        "every figure is produced, not what holds."
      : "",
    `Verdicts over all published figures: ${tally}. *Can't tell*: ours would not hold, but its 95% interval ` +
      `contains the article's ratio or is wider than ±${WIDE * 100}%, too wide to decide, or there is no interval ` +
      "(a single figure).",
  ].filter(Boolean);
  const markdown = [
    "# Do the articles hold?",
    "",
    ...intro.flatMap((p) => [p, ""]),
    "The chart of every figure — the article's ratio and ours with its 95% interval on one log axis, coloured by " +
      "verdict — is in `claims.html`.",
    "",
    ...runs.flatMap((r) => claimsMarkdown(r.table, r.preset, 2)),
  ].join("\n");
  const paragraphs = intro.map(
    (p) =>
      `<p>${p
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
        .replace(/\*(.+?)\*/g, "<em>$1</em>")
        .replace(/`(.+?)`/g, "<code>$1</code>")}</p>`,
  );
  const sections = runs.map((r) => claimsHtml(r.table, r.preset));
  const title = "<title>Do the articles hold?</title>";
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8">${title}<style>${PAGE_CSS}</style></head>`;
  const body = `${paragraphs.join("")}${claimsChart(runs.map((r) => r.table))}${sections.join("")}`;
  const html = `${head}<body><h1>Do the articles hold?</h1>${body}</body></html>\n`;
  return { markdown: `${markdown}\n`, html };
}

/** Appends a preset's claims table to its results.md, report.html and results.json. */
export async function addClaims(
  run: Pick<PresetRun, "claim" | "preset">,
  results: Results,
  files: Awaited<ReturnType<typeof writeReports>>,
) {
  const table = claimsTable(results, run.claim, run.preset);
  await appendFile(files.markdown, `\n${claimsMarkdown(table, run.preset).join("\n")}`);
  const html = await readFile(files.html, "utf8");
  const at = html.lastIndexOf("</body>");
  const section = claimsHtml(table, run.preset);
  await writeFile(files.html, at >= 0 ? `${html.slice(0, at)}${section}${html.slice(at)}` : html + section);
  const json = JSON.parse(await readFile(files.json, "utf8")) as Record<string, unknown>;
  json.claims = table;
  await writeFile(
    files.json,
    `${JSON.stringify(json, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v), 2)}\n`,
  );
  return table;
}
