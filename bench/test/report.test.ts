// The report files, and the HTML drawing its charts in a real (headless) Chromium without fetching anything.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aaLines, resolutionOf } from "../src/analysis/aa.ts";
import { splitCosts } from "../src/analysis/split.ts";
import { summarise } from "../src/analysis/summary.ts";
import { claimsPage } from "../src/claims/cli.ts";
import { PRESETS } from "../src/claims/presets.ts";
import type { ClaimRow, ClaimsTable } from "../src/claims/table.ts";
import { writeReports } from "../src/report/write.ts";
import type { CellResult, Results, TargetInfo } from "../src/results/schema.ts";
import { fakeRunContext } from "./support/cells.ts";
import { growthResults } from "./support/growth-run.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The fixture run: node-http, node-http-pg, node-http-prisma, express and a broken implementation on hello and
 * user-by-id, 3 repeats. `extra`: more targets and their requests/s per scenario (an A/A twin makes the run's
 * `aa` and `resolution`).
 */
function fixtureResults(
  extra: { targets: TargetInfo[]; rps: Record<string, Record<string, number[]>> } = {
    targets: [],
    rps: {},
  },
): Results {
  const targets: TargetInfo[] = [
    {
      name: "node-http",
      role: "baseline",
      framework: "node-http",
      variant: "baseline",
      language: "typescript",
      baselineFor: "framework",
      startupMs: 110,
      idleRssBytes: 50 * 1048576,
      versions: {},
    },
    {
      name: "node-http-pg",
      role: "baseline",
      framework: "node-http-pg",
      variant: "baseline",
      language: "typescript",
      baselineFor: "database",
      startupMs: 150,
      idleRssBytes: 60 * 1048576,
      versions: {},
    },
    {
      name: "node-http-prisma",
      role: "baseline",
      framework: "node-http-prisma",
      variant: "baseline",
      language: "typescript",
      baselineFor: "database",
      layer: "data-access",
      startupMs: 400,
      idleRssBytes: 90 * 1048576,
      versions: {},
    },
    {
      name: "express",
      role: "implementation",
      framework: "express",
      variant: "default",
      language: "typescript",
      startupMs: 900,
      idleRssBytes: 120 * 1048576,
      versions: { express: "5.3.0" },
    },
    {
      name: "broken",
      role: "implementation",
      framework: "broken",
      variant: "default",
      language: "typescript",
      startupMs: 800,
      idleRssBytes: 100 * 1048576,
      versions: {},
    },
    ...extra.targets,
  ];
  const scenarios: Results["scenarios"] = [
    { name: "hello", title: "GET / (hello world)", kind: "framework", baseline: "node-http" },
    {
      name: "user-by-id",
      title: "GET /users/:id",
      kind: "database",
      baseline: "node-http-pg",
      layers: { typescript: "node-http-prisma" },
    },
  ];
  const rps: Record<string, Record<string, number[]>> = {
    hello: { "node-http": [20_000, 21_000, 19_000], express: [12_000, 12_600, 11_400], ...extra.rps.hello },
    "user-by-id": {
      "node-http-pg": [8_000, 8_400, 7_600],
      "node-http-prisma": [6_000, 6_300, 5_700],
      express: [4_000, 4_200, 3_900],
      broken: [9_000, 9_000, 9_000],
      ...extra.rps["user-by-id"],
    },
  };
  const cells: CellResult[] = [];
  for (const [scenario, byTarget] of Object.entries(rps)) {
    for (const [target, values] of Object.entries(byTarget)) {
      for (const [i, value] of values.entries()) {
        cells.push({
          scenario: scenario as CellResult["scenario"],
          connections: 100,
          repeat: i + 1,
          target,
          position: 1,
          outcome: {
            durationS: 5,
            completed: value * 5,
            requestsPerSecond: value,
            statusCounts: { 200: value * 5 },
            non2xx: 0,
            errors: 0,
            timeouts: 0,
            latency: {
              p50: 1e6 / value / 10,
              p90: 1e6 / value / 6,
              p99: 1e6 / value / 3,
              max: 1e6 / value,
              mean: 1e6 / value / 9,
              count: value * 5,
            },
          },
          server: {
            cpuCores: 0.98,
            cpuSeconds: 4.9,
            peakRssBytes: (target === "express" ? 160 : 80) * 1048576,
            cpuMicrosPerRequest: 1e6 / value,
          },
          loadGenerator: { cpuCores: target === "node-http" ? 0.95 : 0.6, saturated: target === "node-http" },
          // PostgreSQL CPU per request: express's is below the raw baseline's (flagged ◆)
          ...(scenario === "user-by-id"
            ? { postgres: { cpuCores: 0.3, cpuMicrosPerRequest: target === "express" ? 25 : 30 } }
            : {}),
          ...(target === "broken" && i === 1 ? { failure: "12 unexpected non-2xx responses (12× 500)" } : {}),
          // --restart cell: express's fresh processes started in 200, 210 and 220 ms (the others ran one process).
          ...(target === "express" ? { startupMs: 200 + i * 10 } : {}),
        });
      }
    }
  }
  const verification: Results["verification"] = [
    {
      scenario: "hello",
      target: "broken",
      ok: false,
      checked: 24,
      failed: 24,
      failures: [{ request: "GET /", problem: "status 500, expected 200" }],
    },
  ];
  const summary = summarise(scenarios, targets, cells, verification);
  const aa = aaLines(summary, targets);
  return {
    startedAt: "2026-01-02T03:04:05.000Z",
    finishedAt: "2026-01-02T03:14:05.000Z",
    options: {
      connections: [100],
      durationS: 5,
      warmupS: 2,
      repeats: 3,
      pipelining: 1,
      poolSize: 10,
      verifySample: 24,
      rate: null,
      loadGeneratorSaturationThreshold: 0.9,
    },
    ...fakeRunContext(),
    machine: { ...fakeRunContext().machine, memoryBytes: 24 * 2 ** 30 },
    pinning: { ...fakeRunContext().pinning, postgres: "not pinned", note: "n" },
    postgres: { provider: "embedded", version: "PostgreSQL 18.4 on x86_64", settings: {} },
    versions: { node: "v24.0.0", autocannon: "9.0.0", pg: "8", "@prisma/client": "7", "@prisma/adapter-pg": "7" },
    rows: { users: 1000, products: 5000, orders: 10000 },
    targets,
    scenarios,
    verification,
    cells,
    summary,
    split: splitCosts(scenarios, targets, summary, cells),
    ...(aa.length > 0 ? { aa, resolution: resolutionOf(aa) } : {}),
  };
}

const twin: TargetInfo = {
  name: "node-http~aa",
  role: "baseline",
  framework: "node-http",
  variant: "baseline",
  language: "typescript",
  baselineFor: "framework",
  twinOf: "node-http",
  startupMs: 110,
  idleRssBytes: 50 * 1048576,
  versions: {},
};
/** An implementation whose user-by-id figures vary too much to tell anything. */
const koa: TargetInfo = {
  name: "koa",
  role: "implementation",
  framework: "koa",
  variant: "default",
  language: "typescript",
  versions: {},
};

let dir: string;
let files: Awaited<ReturnType<typeof writeReports>>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "bench-report-"));
  files = await writeReports(fixtureResults(), join(dir, "run"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("report files", () => {
  it("results.json keeps every raw figure and the run's context", async () => {
    const json = JSON.parse(await readFile(files.json, "utf8")) as Results;
    expect(json.cells).toHaveLength(18);
    expect(json.machine.cpuModel).toBe("Test CPU");
    expect(json.pinning.server).toBe("cpu 0");
    const hello = json.summary.find((s) => s.scenario === "hello" && s.target === "express");
    expect(hello?.rpsRatio.value).toBeCloseTo(0.6);
    // the baseline's load generator saturated: CPU per request is the ratio to quote
    expect(hello?.headline).toBe("cpu-per-request");
    const user = json.summary.find((s) => s.scenario === "user-by-id" && s.target === "express");
    expect(user?.headline).toBe("throughput");
    expect(user?.rpsRatio.n).toBe(3);
    expect(user?.rpsRatio.low).toBeCloseTo(0.486, 2);
    expect(user?.rpsRatio.high).toBeCloseTo(0.524, 2);
    // express ÷ node-http-prisma ≈ 0.67, node-http-prisma ÷ node-http-pg = 0.75: their product is the total
    const split = json.split.find((s) => s.scenario === "user-by-id" && s.target === "express");
    expect(split?.framework.value).toBeCloseTo(0.672, 2);
    expect(split?.dataAccess.value).toBeCloseTo(0.75, 3);
    expect((split?.framework.value ?? 0) * (split?.dataAccess.value ?? 0)).toBeCloseTo(split?.total.value ?? 1, 6);
  });

  it("results.md has a table per scenario with median (min–max), ratio, failures and the saturation mark", async () => {
    const md = await readFile(files.markdown, "utf8");
    expect(md).toContain("## hello — GET / (hello world)");
    expect(md).toContain("## user-by-id — GET /users/:id");
    // the first table: the split of each database figure
    expect(md.indexOf("## Framework cost × data-access cost")).toBeLessThan(md.indexOf("## hello"));
    expect(md).toMatch(
      /\| user-by-id \| express \| 0\.50× \(0\.49–0\.52\) \| 0\.67× \(0\.65–0\.70\) × node-http-prisma \| 0\.75× \(0\.75–0\.75\) \| requests\/s \|/,
    );
    // express on hello: 12,000 (11,400–12,600), ratio 0.60 in every repeat; CPU per request is the headline (bold)
    expect(md).toMatch(
      /\| express \| 12,000 \(11,400–12,600\) \| 0\.60× \(0\.60–0\.60\) \| \*\*0\.60× \(0\.60–0\.60\)\*\* \| ±0\.0%, n=3 \| /,
    );
    // user-by-id: 4000/8000=0.5, 4200/8400=0.5, 3900/7600≈0.513: geometric mean 0.50, t-interval 0.49–0.52
    expect(md).toMatch(
      /\| express \| 4,000 \(3,900–4,200\) \| \*\*0\.50× \(0\.49–0\.52\)\*\* \| 0\.50× \(0\.49–0\.52\) \| ±3\.8%, n=3 \| /,
    );
    expect(md).toMatch(/\| broken \| \*\*FAILED\*\*: verification failed \(24\/24\): GET \/ → status 500/);
    expect(md).toMatch(/\| broken \| \*\*FAILED\*\*: 12 unexpected non-2xx responses/);
    expect(md).toMatch(/\| \*node-http\* \(baseline\) \| 20,000 \(19,000–21,000\) ⚠ \|/);
    expect(md).toContain("⚠ The load generator used at least 90% of its core");
    expect(md).toMatch(/\| express \| 4,000 .*\| 25\.0 ◆ \|/);
    expect(md).toContain("◆ Less PostgreSQL CPU per request than the raw baseline");
    // start-up: the median of express's six fresh processes; one start for a target that ran one process
    expect(md).toMatch(/\| express \| [^|]+ \| 210 \(median of 6\) \|/);
    expect(md).toMatch(/\| node-http \| [^|]+ \| 110 \|/);
    const flagged = (await readFile(files.json, "utf8")).match(/"beatsBaselineOnPostgres": ?true/g);
    expect(flagged).toHaveLength(1);
  });
});

/** Opens a file in headless Chromium, runs `check` on it, and asserts that nothing beyond the file was requested. */
async function inChromium(file: string, check: (page: Page) => Promise<void>) {
  const { chromium } = await import("playwright-core");
  const userDataDir = await mkdtemp(join(tmpdir(), "bench-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const page = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(pathToFileURL(file).href);
    await check(page);
    await page.screenshot({ path: file.replace(/\.html$/, ".png"), fullPage: true });
    expect(requests).toEqual([pathToFileURL(file).href]);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
}

describe.skipIf(!existsSync(CHROMIUM))(`report.html in headless Chromium (${CHROMIUM})`, () => {
  it("renders every chart from the file alone, with no request beyond it", async () => {
    await inChromium(files.html, async (page) => {
      expect(await page.title()).toContain("Test CPU");
      // memory chart + per scenario: throughput and latency charts
      expect(await page.locator("svg.chart").count()).toBe(1 + 2 * 2);
      const charts = await page.locator("svg.chart").evaluateAll((svgs) =>
        svgs.map((svg) => ({
          title: svg.getAttribute("aria-label"),
          bars: [...svg.querySelectorAll("rect.bar")].map((r) => r.getBoundingClientRect().width),
          whiskers: svg.querySelectorAll("g.whisker").length,
          failed: svg.querySelectorAll("text.failed").length,
          height: svg.getBoundingClientRect().height,
        })),
      );
      const [hello] = charts.filter((c) => c.title?.startsWith("Requests/s"));
      // node-http (20,000) and express (12,000) drawn to scale; broken says FAILED instead of a bar
      expect(hello?.bars).toHaveLength(2);
      expect((hello?.bars[1] ?? 0) / (hello?.bars[0] ?? 1)).toBeCloseTo(0.6, 1);
      expect(hello?.whiskers).toBe(2);
      expect(hello?.failed).toBe(1);
      for (const chart of charts) expect(chart.height).toBeGreaterThan(30);
      const latency = charts.filter((c) => c.title?.startsWith("Latency"));
      expect(latency[0]?.bars).toHaveLength(2 * 3);
      expect(await page.getByText("FAILED: verification failed (24/24)").count()).toBeGreaterThan(0);
    });
  });

  it("shows the A/A section first, and draws the claims chart to scale on its log axis", async () => {
    const aa = await writeReports(
      fixtureResults({ targets: [twin], rps: { hello: { "node-http~aa": [22_000, 23_000, 21_000] } } }),
      join(dir, "aa-chromium"),
    );
    await inChromium(aa.html, async (page) => {
      const first = await page.locator("h2").first().textContent();
      expect(first).toBe("This run's resolving power");
      expect(await page.locator("section.aa li.aa-biased").count()).toBe(1);
      expect(await page.locator("section.aa .alarm").isVisible()).toBe(true);
    });
    const preset = PRESETS.find((p) => p.id === "four-frameworks-hello");
    if (!preset) throw new Error("no preset four-frameworks-hello");
    const claimsFile = join(dir, "claims.html");
    await writeFile(claimsFile, claimsPage([{ table: claimsFixture(), preset }], false).html);
    await inChromium(claimsFile, async (page) => {
      expect(await page.locator("svg.claims-chart g.claim").count()).toBe(5);
      // the claimed marks of 2× and 4× (first two rows) sit at 1 and 2 log-units of 2 from the 1× line
      const centres = await page
        .locator("svg.claims-chart path.claimed")
        .evaluateAll((paths) => paths.map((p) => p.getBoundingClientRect()).map((b) => b.x + b.width / 2));
      const one = await page
        .locator("svg.claims-chart line[stroke='#555']")
        .evaluate((l) => l.getBoundingClientRect().x);
      expect(((centres[1] ?? 0) - one) / ((centres[0] ?? 0) - one)).toBeCloseTo(2, 1);
      expect(await page.locator("svg.claims-chart circle.measured").count()).toBe(4);
    });
  });

  it("draws a growth run's chart: each target's points on a log scale axis, to scale", async () => {
    const growth = await writeReports(growthResults(), join(dir, "growth"));
    await inChromium(growth.html, async (page) => {
      // per scenario: requests/s and PostgreSQL µs per request
      expect(await page.locator("section.growth svg.growth-chart").count()).toBe(2 * 2);
      const charts = await page.locator("section.growth svg.growth-chart").evaluateAll((svgs) =>
        svgs.map((svg) => ({
          axis: svg.getAttribute("data-y-axis"),
          series: [...svg.querySelectorAll("g.series")].map((g) =>
            [...g.querySelectorAll("circle.point")].map((c) => {
              const box = c.getBoundingClientRect();
              return {
                scale: Number(c.getAttribute("data-scale")),
                x: box.x + box.width / 2,
                y: box.y + box.height / 2,
              };
            }),
          ),
          whiskers: svg.querySelectorAll("line.whisker").length,
        })),
      );
      const [list, , deep] = charts;
      // orders-list's requests/s: node-http-pg at 1, 10, 100; express failed at 100 (no point)
      expect(list?.series.map((s) => s.map((p) => p.scale))).toEqual([
        [1, 10, 100],
        [1, 10],
      ]);
      const [pg] = list?.series ?? [];
      const [at1, at10, at100] = pg ?? [];
      // the x axis is logarithmic: 1 → 10 and 10 → 100 are the same distance
      expect((at100?.x ?? 0) - (at10?.x ?? 0)).toBeCloseTo((at10?.x ?? 0) - (at1?.x ?? 0), 0);
      // within a decade: a linear y from 0, 1,000 and 500 req/s at the heights of their ratio
      expect(list?.axis).toBe("linear");
      const base = await page
        .locator("section.growth svg.growth-chart")
        .first()
        .evaluate((svg) => {
          const axis = svg.querySelectorAll("line")[0]?.getBoundingClientRect();
          return axis ? axis.y : 0;
        });
      expect((base - (at100?.y ?? 0)) / (base - (at1?.y ?? 1))).toBeCloseTo(0.5, 1);
      expect(list?.whiskers).toBe(5);
      // orders-deep-page spans three decades: a log y, 1,000 → 100 → 10 evenly spaced
      expect(deep?.axis).toBe("log");
      const [d1, d10, d100] = deep?.series[0] ?? [];
      expect((d100?.y ?? 0) - (d10?.y ?? 0)).toBeCloseTo((d10?.y ?? 0) - (d1?.y ?? 0), 0);
      expect(await page.locator("td.kept-lost").count()).toBeGreaterThan(0);
    });
  }, 60_000);
});

describe("the A/A line and the verdicts of the split", () => {
  const write = async (name: string, results: Results) => {
    const written = await writeReports(results, join(dir, name));
    return { md: await readFile(written.markdown, "utf8"), html: await readFile(written.html, "utf8") };
  };
  // node-http~aa ÷ node-http: 1.005, 0.995, 1.011 — an interval around 1; koa's user-by-id ratios 1.0, 0.6, 1.3.
  const withTwin = (twinRps: number[]) =>
    fixtureResults({
      targets: [twin, koa],
      rps: { hello: { "node-http~aa": twinRps }, "user-by-id": { koa: [8_000, 5_000, 10_000] } },
    });

  it("heads results.md and report.html with each A/A line, its figures and verdict, and the run's resolution", async () => {
    const results = withTwin([20_100, 20_900, 19_200]);
    expect(results.aa).toHaveLength(1);
    expect(results.aa?.[0]?.verdict).toBe("ok");
    const { md, html } = await write("aa-ok", results);
    // the hello baseline's load generator saturated: CPU per request is the headline, and so the A/A figure
    const line = "hello @100: node-http~aa ÷ node-http = 1.004× (0.985–1.023), ±1.9% in CPU/request — ok";
    expect(md).toContain(line);
    expect(html).toContain(line);
    expect(results.resolution).toBeCloseTo(0.019, 3);
    const resolution = "Differences under ±1.9% cannot be told apart in this run.";
    expect(md).toContain(resolution);
    expect(html).toContain(resolution);
    // right after the run's context, before everything else
    expect(md.indexOf("## This run's resolving power")).toBeGreaterThan(md.indexOf("- **Method**"));
    expect(md.indexOf("## This run's resolving power")).toBeLessThan(md.indexOf("## Framework cost"));
    expect(html.indexOf("This run's resolving power")).toBeLessThan(html.indexOf("Framework cost"));
    expect(md).not.toContain("precision check");
    // the twin is a baseline row of hello with its ratios, and not in the split
    expect(md).toContain(
      "| *node-http~aa* (A/A twin) | 20,100 (19,200–20,900) | 1.00× (0.98–1.02) | **1.00× (0.98–1.02)** |",
    );
    expect(html).toContain("<em>node-http~aa</em> (A/A twin)");
    expect(results.split.some((s) => s.target === "node-http~aa")).toBe(false);
  });

  it("says loudly that a run whose twin differed failed its precision check", async () => {
    const results = withTwin([22_000, 23_000, 21_000]);
    expect(results.aa?.[0]?.verdict).toBe("biased");
    const { md, html } = await write("aa-biased", results);
    for (const text of [md, html]) {
      expect(text).toContain("This run failed its precision check: the two copies of one server differed (hello @100)");
      expect(text).toContain("Quote the figures of this run only as orderings");
      expect(text).toMatch(/node-http~aa ÷ node-http = 1\.100× .* — biased/);
    }
  });

  it("prints no A/A section for a run without A/A lines, and says how the run paired its ratios", async () => {
    const md = await readFile(files.markdown, "utf8");
    const html = await readFile(files.html, "utf8");
    for (const text of [md, html]) {
      expect(text).not.toContain("resolving power");
      expect(text).toContain("sequential: one target at a time, interleaved");
    }
    const duet = await write("duet", { ...fixtureResults(), pairing: "duet" });
    expect(duet.md).toContain("duet: each target at the same time as its baseline");
    expect(duet.html).toContain("ratios of requests per CPU-second");
  });

  it("marks a split figure whose interval is too wide as can't tell, and a clear one not at all", async () => {
    const { md, html } = await write("split", withTwin([20_100, 20_900, 19_200]));
    expect(md).toContain(
      "| user-by-id | koa | 0.92× (0.34–2.51) *can't tell* | 1.23× (0.45–3.34) *can't tell* × node-http-prisma | 0.75× (0.75–0.75) | requests/s |",
    );
    expect(md).toContain(
      "| user-by-id | express | 0.50× (0.49–0.52) | 0.67× (0.65–0.70) × node-http-prisma | 0.75× (0.75–0.75) | requests/s |",
    );
    expect(md).toContain("*can't tell*: the 95% interval is too wide");
    expect(html).toContain('<td class="n">0.92× (0.34–2.51) <em class="said">can&#39;t tell</em></td>');
  });
});

/** A claims table by hand: one row per verdict, and an error-rate row (no ratio: not in the chart). */
function claimsFixture(): ClaimsTable {
  const row = (
    verdict: ClaimRow["verdict"],
    framework: string,
    claimed: number,
    value: number,
    low: number,
    high: number,
  ): ClaimRow => ({
    figure: "rps",
    comparison: `${framework} ÷ express`,
    claimed: { text: `${claimed}×`, ratio: claimed },
    measured: { text: `${value}×`, ratio: { value, low, high, halfWidth: high / value - 1, n: 3 } },
    verdict,
    reasons: [],
  });
  return {
    id: "four-frameworks-hello",
    article: "Express vs Fastify vs Hapi vs Koa: hello world",
    claim: "Fastify is four times Express",
    rows: [
      row("holds", "koa", 2, 1.9, 1.8, 2),
      row("holds in direction only", "fastify", 4, 1.7, 1.6, 1.8),
      row("does not hold", "hapi", 2.5, 0.78, 0.72, 0.85),
      row("can't tell", "nestjs", 1.2, 0.92, 0.47, 1.79),
      row("not measured here", "restify", 1.5, Number.NaN, Number.NaN, Number.NaN),
      {
        figure: "error_rate",
        comparison: "every implementation",
        claimed: { text: "0%", ratio: Number.NaN },
        measured: { text: "0.00%", ratio: undefined },
        verdict: "holds",
        reasons: [],
      },
    ],
  };
}

describe("the claims page", () => {
  const preset = PRESETS.find((p) => p.id === "four-frameworks-hello");
  if (!preset) throw new Error("no preset four-frameworks-hello");
  const page = claimsPage([{ table: claimsFixture(), preset }], false);

  it("counts every verdict, can't tell included", () => {
    const tally = "2 hold, 1 in direction only, 1 do not hold, 1 can't tell, 1 not measured here";
    expect(page.markdown).toContain(tally);
    expect(page.html).toContain(tally);
    expect(page.markdown).toContain("**can't tell**");
  });

  it("draws every figure that is a ratio on one chart in claims.html, one mark per figure, coloured by verdict", () => {
    const svg = page.html.match(/<svg class="chart claims-chart".*?<\/svg>/s)?.[0] ?? "";
    expect(svg).not.toBe("");
    expect(svg.match(/<g class="claim"/g)).toHaveLength(5);
    expect(svg.match(/class="claimed"/g)).toHaveLength(5);
    // ours only where it was measured
    expect(svg.match(/class="measured"/g)).toHaveLength(4);
    for (const verdict of ["holds", "holds in direction only", "does not hold", "not measured here"]) {
      expect(svg).toContain(`data-verdict="${verdict}"`);
    }
    expect(svg).toContain('data-verdict="can&#39;t tell"');
    expect(svg).toContain("Express vs Fastify vs Hapi vs Koa: hello world");
    expect(svg).toContain(">rps · hapi ÷ express</text>");
    expect(svg).toContain('class="legend"');
    expect(page.html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    expect(page.markdown).toContain("is in `claims.html`");
    expect(page.markdown).not.toContain("<svg");
  });
});
