// The runtime side of the bench: which baselines a scenario measures for rows on Bun and Deno, and the two ratios
// every row gets — to its own runtime's raw baseline (the framework's cost there) and to Node's (what the runtime
// changes) — in results.json, the split, and the report's runtime column.
import type { Implementation } from "@api-ref/harness";
import { describe, expect, it } from "vitest";
import { ratiosTo } from "../src/analysis/ratios.ts";
import { splitCosts } from "../src/analysis/split.ts";
import { summarise } from "../src/analysis/summary.ts";
import { BASELINES, TWINS, targetsOfScenario, unavailableBaselines } from "../src/baselines.ts";
import { renderHtml } from "../src/report/html.ts";
import { renderMarkdown } from "../src/report/markdown.ts";
import type { Results, ScenarioInfo, TargetInfo } from "../src/results/schema.ts";
import type { ScenarioName } from "../src/scenarios/catalog.ts";
import { fakeCell, fakeRunContext } from "./support/cells.ts";

const row = (name: string, runtime: Implementation["runtime"]): Implementation => ({
  name,
  framework: name,
  variant: "default",
  language: runtime === "python" ? "python" : "typescript",
  runtime,
  dir: "apps/x",
  start: { command: "x", args: [] },
});
const hono = row("hono", "node");
const honoBun = row("hono-bun", "bun");
const honoDeno = row("hono-deno", "deno");
const fastapi = row("fastapi", "python");
const targetsOf = (impls: Implementation[], scenario: ScenarioName) =>
  targetsOfScenario({ impls, targets: [] }, scenario);

describe("the baselines a scenario measures", () => {
  it("are Node's (and its A/A twin) alone when every row runs on Node", () => {
    expect(targetsOf([hono], "hello")).toEqual(["node-http", "node-http~aa", "hono"]);
    expect(targetsOf([hono], "user-by-id")).toEqual(["node-http-pg", "node-http-prisma", "node-http-pg~aa", "hono"]);
  });

  it("add a runtime's own raw server, and on the database scenarios its Prisma layer, when a row of it is measured", () => {
    expect(targetsOf([hono, honoBun, honoDeno], "hello")).toEqual([
      "node-http",
      "bun-http",
      "deno-http",
      "node-http~aa",
      "hono",
      "hono-bun",
      "hono-deno",
    ]);
    // Deno has no database baseline: its row is taken to node-http-pg only.
    expect(targetsOf([honoBun, honoDeno], "user-by-id")).toEqual([
      "node-http-pg",
      "bun-http-pg",
      "bun-http-prisma",
      "node-http-pg~aa",
      "hono-bun",
      "hono-deno",
    ]);
    expect(targetsOf([{ ...honoBun, name: "hono-bun[sql]" }], "user-by-id")).toEqual([
      "node-http-pg",
      "bun-http-pg",
      "bun-http-prisma",
      "bun-http-prisma[sql]",
      "node-http-pg~aa",
      "hono-bun[sql]",
    ]);
  });

  it("keep Python rows on Node's limit and their own data-access layer", () => {
    expect(targetsOf([fastapi], "user-by-id")).toEqual(["node-http-pg", "raw-asgi", "node-http-pg~aa", "fastapi"]);
  });

  it("keep one A/A twin per kind of scenario, Node's", () => {
    expect(TWINS.map((t) => t.name)).toEqual(["node-http~aa", "node-http-pg~aa"]);
  });

  it("leave out a runtime's baselines when its binary is missing, and say why in one line each", () => {
    const missing = "bun has no binary for linux-riscv64 (@oven/bun-linux-riscv64 is not installed)";
    const noBun = BASELINES.map((b) => (b.runtime === "bun" ? { ...b, unavailable: missing } : b));
    const options = { impls: [honoBun], targets: [] };
    expect(targetsOfScenario(options, "user-by-id", noBun)).toEqual(["node-http-pg", "node-http-pg~aa", "hono-bun"]);
    expect(unavailableBaselines(options, ["hello", "user-by-id"], noBun)).toEqual([
      { name: "bun-http", reason: missing },
      { name: "bun-http-pg", reason: missing },
      { name: "bun-http-prisma", reason: missing },
    ]);
    // Nothing is said of baselines the run would not measure anyway.
    expect(unavailableBaselines({ impls: [hono] }, ["hello"], noBun)).toEqual([]);
  });
});

// ---- a run's figures ---------------------------------------------------------------------------------------------

const target = (name: string, runtime: string, role: TargetInfo["role"] = "baseline"): TargetInfo => ({
  name,
  role,
  framework: name,
  variant: "default",
  language: runtime === "python" ? "python" : "typescript",
  runtime,
  versions: {},
});

/** Cells of one target: requests/s per repeat, CPU per request its inverse (one core busy). */
function cellsOf(scenario: ScenarioName, name: string, rps: number[], pairs?: { with: string; ids: string[] }) {
  return rps.map((value, i) =>
    fakeCell(scenario, name, i + 1, value, pairs ? { pair: { id: pairs.ids[i] as string, with: pairs.with } } : {}),
  );
}

function run(): Results {
  const targets = [
    target("node-http", "node"),
    target("bun-http", "bun"),
    target("deno-http", "deno"),
    target("node-http-pg", "node"),
    target("bun-http-pg", "bun"),
    { ...target("node-http-prisma", "node"), layer: "data-access" as const },
    { ...target("bun-http-prisma", "bun"), layer: "data-access" as const },
    target("hono", "node", "implementation"),
    target("hono-bun", "bun", "implementation"),
    target("hono-deno", "deno", "implementation"),
  ];
  const scenarios: ScenarioInfo[] = [
    {
      name: "hello",
      title: "GET /",
      kind: "framework",
      baseline: "node-http",
      runtimes: { node: "node-http", bun: "bun-http", deno: "deno-http" },
    },
    {
      name: "user-by-id",
      title: "GET /users/:id",
      kind: "database",
      baseline: "node-http-pg",
      runtimes: { node: "node-http-pg", bun: "bun-http-pg" },
      layers: { typescript: "node-http-prisma", "typescript@bun": "bun-http-prisma" },
    },
  ];
  const cells = [
    ...cellsOf("hello", "node-http", [20_000, 21_000, 19_000]),
    ...cellsOf("hello", "bun-http", [40_000, 42_000, 38_000]),
    ...cellsOf("hello", "deno-http", [30_000, 31_500, 28_500]),
    ...cellsOf("hello", "hono", [15_000, 15_750, 14_250]),
    ...cellsOf("hello", "hono-bun", [30_000, 31_500, 28_500]),
    ...cellsOf("hello", "hono-deno", [24_000, 25_200, 22_800]),
    ...cellsOf("user-by-id", "node-http-pg", [8_000, 8_400, 7_600]),
    ...cellsOf("user-by-id", "bun-http-pg", [10_000, 10_500, 9_500]),
    ...cellsOf("user-by-id", "node-http-prisma", [6_000, 6_300, 5_700]),
    ...cellsOf("user-by-id", "bun-http-prisma", [7_000, 7_350, 6_650]),
    ...cellsOf("user-by-id", "hono", [5_000, 5_250, 4_750]),
    ...cellsOf("user-by-id", "hono-bun", [5_600, 5_880, 5_320]),
    ...cellsOf("user-by-id", "hono-deno", [4_000, 4_200, 3_800]),
  ];
  const summary = summarise(scenarios, targets, cells, []);
  return {
    ...fakeRunContext(),
    startedAt: "2026-01-02T03:04:05.000Z",
    finishedAt: "2026-01-02T03:14:05.000Z",
    options: { connections: [100], durationS: 5, warmupS: 2, repeats: 3, pipelining: 1, poolSize: 10 },
    rows: { users: 1, products: 1, orders: 1 },
    targets,
    scenarios,
    cells,
    summary,
    split: splitCosts(scenarios, targets, summary, cells),
  };
}

const results = run();
const summaryOf = (scenario: string, name: string) =>
  results.summary.find((s) => s.scenario === scenario && s.target === name);

describe("two ratios per row", () => {
  it("take a row to its own runtime's raw server and to Node's", () => {
    const bun = summaryOf("hello", "hono-bun");
    expect(bun?.runtime).toBe("bun");
    expect(bun?.runtimeBaseline).toBe("bun-http");
    expect(bun?.runtimeRpsRatio.value).toBeCloseTo(0.75, 6); // Hono's cost on Bun
    expect(bun?.rpsRatio.value).toBeCloseTo(1.5, 6); // against node:http: what Bun changes, Hono held fixed
    expect(bun?.runtimeCpuRatio.value).toBeCloseTo(0.75, 6);
    expect(bun?.runtimeRpsRatio.n).toBe(3);
    const deno = summaryOf("hello", "hono-deno");
    expect(deno?.runtimeBaseline).toBe("deno-http");
    expect(deno?.runtimeRpsRatio.value).toBeCloseTo(0.8, 6);
    expect(deno?.rpsRatio.value).toBeCloseTo(1.2, 6);
  });

  it("are one and the same on Node rows", () => {
    const node = summaryOf("hello", "hono");
    expect(node?.runtimeBaseline).toBe("node-http");
    expect(node?.runtimeRpsRatio).toEqual(node?.rpsRatio);
    expect(node?.runtimeCpuRatio).toEqual(node?.cpuRatio);
  });

  it("give a runtime's own baseline what the runtime alone changes, and leave out a runtime with no baseline", () => {
    const bunHttp = summaryOf("hello", "bun-http");
    expect(bunHttp?.runtimeRpsRatio.value).toBeCloseTo(1, 6);
    expect(bunHttp?.rpsRatio.value).toBeCloseTo(2, 6);
    // Baselines first: Node's, then the other runtimes', then the layers.
    expect(results.summary.filter((s) => s.scenario === "user-by-id").map((s) => s.target)).toEqual([
      "node-http-pg",
      "bun-http-pg",
      "node-http-prisma",
      "bun-http-prisma",
      "hono",
      "hono-bun",
      "hono-deno",
    ]);
    const deno = summaryOf("user-by-id", "hono-deno");
    expect(deno?.runtimeBaseline).toBeUndefined();
    expect(deno?.runtimeRpsRatio.n).toBe(0);
    expect(deno?.rpsRatio.value).toBeCloseTo(0.5, 6);
  });

  it("split a Bun row's database figure within Bun: framework × data access = its ratio to bun-http-pg", () => {
    const split = results.split.find((s) => s.target === "hono-bun");
    expect(split).toMatchObject({ layer: "bun-http-prisma", limit: "bun-http-pg" });
    expect(split?.framework.value).toBeCloseTo(0.8, 6);
    expect(split?.dataAccess.value).toBeCloseTo(0.7, 6);
    expect(split?.total.value).toBeCloseTo(0.56, 6);
    expect(results.split.find((s) => s.target === "hono")).toMatchObject({
      layer: "node-http-prisma",
      limit: "node-http-pg",
    });
    // No Deno layer: no split row rather than one across runtimes.
    expect(results.split.some((s) => s.target === "hono-deno")).toBe(false);
  });

  it("reach a runtime's baseline through Node's in duet, when each was paired with Node's", () => {
    const cells = [
      ...cellsOf("user-by-id", "node-http-pg", [8_000, 8_000, 8_000, 8_000], {
        with: "x",
        ids: ["a1", "a2", "b1", "b2"],
      }),
      ...cellsOf("user-by-id", "bun-http-prisma", [6_000, 6_000], { with: "node-http-pg", ids: ["a1", "a2"] }),
      ...cellsOf("user-by-id", "bun-http-pg", [10_000, 10_000], { with: "node-http-pg", ids: ["b1", "b2"] }),
    ];
    const own = cells.filter((c) => c.target === "bun-http-prisma");
    const { rps } = ratiosTo(cells, "user-by-id", 100, own, "bun-http-pg");
    expect(rps.value).toBeCloseTo(0.6, 6);
  });
});

describe("the report", () => {
  it("results.md has the runtime column and the ratio to the row's own runtime's baseline", () => {
    const md = renderMarkdown(results);
    expect(md).toContain(
      "| implementation | req/s median (min–max) | × baseline req/s (95% CI) | × baseline CPU/req (95% CI) | precision | runtime | × own runtime's baseline (95% CI) |",
    );
    expect(md).toContain("Baseline: node-http; each runtime's own: bun-http (bun), deno-http (deno).");
    // Hono on Bun: 0.75× Bun's own server (its framework cost there), 1.50× node:http (Bun's gain, Hono held fixed).
    expect(md).toContain(
      "| hono-bun | 30,000 (28,500–31,500) | **1.50× (1.50–1.50)** | 1.50× (1.50–1.50) | ±0.0%, n=3 | bun | 0.75× (0.75–0.75) |",
    );
    expect(md).toContain(
      "| hono | 15,000 (14,250–15,750) | **0.75× (0.75–0.75)** | 0.75× (0.75–0.75) | ±0.0%, n=3 | node | 0.75× (0.75–0.75) |",
    );
    // No Deno database baseline: only the ratio to node-http-pg.
    expect(md).toContain(
      "| hono-deno | 4,000 (3,800–4,200) | **0.50× (0.50–0.50)** | 0.50× (0.50–0.50) | ±0.0%, n=3 | deno | – |",
    );
  });

  it("report.html has the same columns", () => {
    const html = renderHtml(results);
    expect(html).toContain(
      "<th>× baseline CPU/req (95% CI)</th><th>runtime</th><th>× own runtime's baseline (95% CI)</th>",
    );
    expect(html).toMatch(
      /<td>hono-bun<\/td><td class="n">30,000 \(28,500–31,500\)<\/td>.*?<td class="n">bun<\/td><td class="n">0\.75× \(0\.75–0\.75\)<\/td>/,
    );
  });
});
