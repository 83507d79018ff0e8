// The report files, and the HTML drawing its charts in a real (headless) Chromium without fetching anything.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReports } from "../src/report/write.ts";
import { type CellResult, type Results, splitCosts, summarise, type TargetInfo } from "../src/results.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function fixtureResults(): Results {
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
    hello: { "node-http": [20_000, 21_000, 19_000], express: [12_000, 12_600, 11_400] },
    "user-by-id": {
      "node-http-pg": [8_000, 8_400, 7_600],
      "node-http-prisma": [6_000, 6_300, 5_700],
      express: [4_000, 4_200, 3_900],
      broken: [9_000, 9_000, 9_000],
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
  return {
    schemaVersion: 2,
    startedAt: "2026-01-02T03:04:05.000Z",
    finishedAt: "2026-01-02T03:14:05.000Z",
    command: [],
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
    machine: {
      hostname: "h",
      platform: "linux",
      kernel: "6.1",
      arch: "x64",
      cpuModel: "Test CPU",
      logicalCpus: 2,
      memoryBytes: 24 * 2 ** 30,
      node: "v24.0.0",
      v8: "13",
      loadAverage1m: 0.1,
    },
    pinning: {
      taskset: true,
      server: "cpu 0",
      loadGenerator: "cpu 1",
      postgres: "not pinned",
      harness: "cpu 1",
      note: "n",
    },
    postgres: { provider: "embedded", version: "PostgreSQL 18.4 on x86_64", settings: {} },
    versions: { node: "v24.0.0", autocannon: "9.0.0", pg: "8", "@prisma/client": "7", "@prisma/adapter-pg": "7" },
    seed: 1,
    scale: 1,
    rows: { users: 1000, products: 5000, orders: 10000 },
    targets,
    scenarios,
    verification,
    cells,
    summary,
    split: splitCosts(scenarios, targets, summary, cells),
  };
}

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
    const flagged = (await readFile(files.json, "utf8")).match(/"beatsBaselineOnPostgres": ?true/g);
    expect(flagged).toHaveLength(1);
  });
});

describe.skipIf(!existsSync(CHROMIUM))(`report.html in headless Chromium (${CHROMIUM})`, () => {
  it("renders every chart from the file alone, with no request beyond it", async () => {
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
      await page.goto(pathToFileURL(files.html).href);
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
      await page.screenshot({ path: join(dir, "report.png"), fullPage: true });
      expect(requests).toEqual([pathToFileURL(files.html).href]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  });
});
