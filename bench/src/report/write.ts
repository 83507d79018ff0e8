// Writes bench/results/<timestamp>/{results.json,results.md,report.html}.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Results } from "../results/schema.ts";
import { renderHtml } from "./html.ts";
import { renderMarkdown } from "./markdown.ts";

/** results.json keeps every raw figure; NaN (a figure that could not be measured) is written as null. */
export async function writeReports(results: Results, dir: string) {
  await mkdir(dir, { recursive: true });
  const files = {
    json: join(dir, "results.json"),
    markdown: join(dir, "results.md"),
    html: join(dir, "report.html"),
  };
  await writeFile(
    files.json,
    `${JSON.stringify(results, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v), 2)}\n`,
  );
  await writeFile(files.markdown, renderMarkdown(results));
  await writeFile(files.html, renderHtml(results));
  return files;
}

/** 2025-01-31T12-00-00Z: sortable, and valid as a directory name everywhere. */
export const timestampDir = (date: Date) =>
  date
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/:/g, "-");
