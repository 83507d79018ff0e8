// Builds the /docs page from Scalar's API reference package (a development dependency) and writes it where
// docsHtml() reads it when that package is not installed: dist/docs.html, in the production images, whose
// dependencies are installed with --prod (each Dockerfile runs this in a build stage and copies the page).
// Usage: node packages/contract/scripts/docs-page.ts [--out FILE]   (pnpm --filter @api-ref/contract build:docs-page)
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { BUILT_DOCS_PAGE, docsPageFromPackage } from "../src/openapi.ts";

// Only node: and the contract's own modules: the images' build stage holds packages/contract alone.
const usage =
  "usage: node packages/contract/scripts/docs-page.ts [--out FILE]   (default: packages/contract/dist/docs.html)";
let values: { out?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: { out: { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
  }));
} catch (error) {
  process.stderr.write(`error: ${(error as Error).message}\n\n${usage}\n`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const out = resolve(values.out ?? BUILT_DOCS_PAGE);
const page = docsPageFromPackage();
mkdirSync(dirname(out), { recursive: true });
// Whole or not at all: a server may be reading the previous one.
writeFileSync(`${out}.${process.pid}.tmp`, page);
renameSync(`${out}.${process.pid}.tmp`, out);
process.stderr.write(`docs-page: wrote ${out} (${(page.length / 1e6).toFixed(1)} MB)\n`);
