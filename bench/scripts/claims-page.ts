// Rewrites the reports of a `pnpm bench --claims` output directory from its results.json files: each preset's
// results.md, report.html and claims table, and the one claims page — after a change to how the claims tables
// are read (verdicts, figures), without measuring again.
//   node scripts/claims-page.ts <dir>
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { addClaims, claimsPage } from "../src/claims/cli.ts";
import { loadClaims, PRESETS } from "../src/claims/presets.ts";
import { writeReports } from "../src/report/write.ts";
import type { Results } from "../src/results/schema.ts";

const dir = process.argv[2];
if (!dir) {
  process.stderr.write("usage: node scripts/claims-page.ts <dir of a pnpm bench --claims run>\n");
  process.exit(2);
}
const root = resolve(process.env.INIT_CWD ?? process.cwd(), dir);
const claims = loadClaims();
const tables = [];
let smoke = false;
for (const preset of PRESETS) {
  const file = join(root, preset.id, "results.json");
  if (!existsSync(file)) continue;
  const { claims: _old, ...results } = JSON.parse(await readFile(file, "utf8")) as Results & { claims?: unknown };
  const claim = claims.find((c) => c.id === preset.id);
  if (!claim) continue;
  smoke ||= results.options.smoke === true;
  const files = await writeReports(results as Results, join(root, preset.id));
  tables.push({ table: await addClaims({ claim, preset }, results as Results, files), preset });
  process.stdout.write(`rewrote ${join(root, preset.id)}\n`);
}
if (tables.length === 0) {
  process.stderr.write(`error: no preset's results.json under ${root}\n`);
  process.exit(1);
}
const page = claimsPage(tables, smoke);
await writeFile(join(root, "claims.md"), page.markdown);
await writeFile(join(root, "claims.html"), page.html);
process.stdout.write(`rewrote ${join(root, "claims.md")} and claims.html\n`);
