// Where the /docs page comes from: Scalar's API reference package in a checkout (a development dependency), the page
// scripts/docs-page.ts built from it in an image (installed with --prod, without that package). The page itself is
// checked in a browser against every implementation by docs-page.contract.test.ts.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BUILT_DOCS_PAGE, docsHtml, docsPageFromPackage, loadDocsPage } from "../src/openapi.ts";

const script = fileURLToPath(new URL("../scripts/docs-page.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "docs-page-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the /docs page", () => {
  it("in a checkout is built from Scalar's package: its script inlined, nothing loaded from elsewhere", () => {
    const page = docsHtml();
    expect(page).toBe(docsPageFromPackage());
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('Scalar.createApiReference("#reference", { url: "/openapi.json"');
    expect(page.length).toBeGreaterThan(1_000_000);
    // Nothing in the inlined script ends its element early, and the web fonts on Scalar's server are gone.
    expect(page.match(/<\/script>/gi)).toHaveLength(2);
    expect(page).not.toContain("fonts.scalar.com");
  });

  it("scripts/docs-page.ts writes that page, which is what an install without Scalar's package serves", () => {
    const out = join(dir, "built", "docs.html");
    const run = spawnSync(process.execPath, [script, "--out", out], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^docs-page: wrote .*docs\.html \(4\.\d MB\)\n$/);
    expect(readFileSync(out, "utf8")).toBe(docsHtml());
    expect(loadDocsPage(null, out)).toBe(docsHtml());
  });

  it("without the package or the built page, says what is missing and how to build it", () => {
    expect(() => loadDocsPage(null, join(dir, "nowhere.html"))).toThrow(
      /needs @scalar\/api-reference \(a development dependency of @api-ref\/contract\) or the page built from it at .*nowhere\.html \(pnpm --filter @api-ref\/contract build:docs-page\)/,
    );
    expect(() => docsPageFromPackage(null)).toThrow(/@scalar\/api-reference is not installed/);
  });

  it("is built by default into the contract package's dist/, which .dockerignore and .gitignore leave out", () => {
    expect(BUILT_DOCS_PAGE).toBe(fileURLToPath(new URL("../dist/docs.html", import.meta.url)));
    const lines = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), "utf8").split("\n");
    expect(lines(".gitignore")).toContain("dist/");
    expect(lines(".dockerignore")).toContain("**/dist");
    const bad = spawnSync(process.execPath, [script, "--outt", "x"], { encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /^error: Unknown option '--outt'.*\n\nusage: node packages\/contract\/scripts\/docs-page\.ts/s,
    );
  });
});
