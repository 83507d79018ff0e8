// The no-framework baselines every ratio is taken to (a raw server per runtime, bench/baselines/), their A/A twins,
// and which of them (with the implementations) each scenario measures.
import { type Implementation, REPO_ROOT, type Runtime, runtimeBinary } from "@api-ref/harness";
import { type ScenarioKind, type ScenarioName, scenarios } from "./scenarios/catalog.ts";
import { inSqlMode, SQL_SUFFIX, withSqlDataAccess } from "./sql-mode.ts";

export interface Baseline extends Implementation {
  baselineFor: ScenarioKind;
  /**
   * limit: the cheapest way to answer, which every ratio is taken to. layer: the implementations' own data access
   * with no framework around it, which splits a figure into framework cost (implementation ÷ layer) and
   * data-access cost (layer ÷ limit) for the implementations of its language.
   */
  layer: "limit" | "data-access";
  /** For an A/A twin: the baseline it is a second process of. */
  twinOf?: string;
}

/** A baseline's start command on Bun or Deno (the binary from node_modules), or why this platform has none. */
function onRuntime(runtime: "bun" | "deno", args: string[]): Pick<Baseline, "runtime" | "start" | "unavailable"> {
  const binary = runtimeBinary(runtime);
  return binary.command
    ? { runtime, start: { command: binary.command, args } }
    : { runtime, start: { command: runtime, args }, unavailable: binary.missing };
}

/** `deno run` as the Deno rows run: every permission (a server reads its environment, listens, connects), no prompt. */
const DENO_RUN = ["run", "--allow-all", "--no-prompt"];

/** packages/data-access with no framework around it; listed twice below, in its client and its sql mode. */
const NODE_HTTP_PRISMA: Baseline = {
  name: "node-http-prisma",
  framework: "node-http-prisma",
  variant: "baseline: node:http + packages/data-access (Prisma), no framework",
  language: "typescript",
  runtime: "node",
  dir: "bench",
  start: { command: process.execPath, args: ["baselines/node-http-prisma.ts"] },
  baselineFor: "database",
  layer: "data-access",
};

/** The same on Bun: raw Bun.serve calling packages/data-access, for the framework × data-access split of Bun rows. */
const BUN_HTTP_PRISMA: Baseline = {
  name: "bun-http-prisma",
  framework: "bun-http-prisma",
  variant: "baseline: Bun.serve + packages/data-access (Prisma), no framework",
  language: "typescript",
  dir: "bench",
  ...onRuntime("bun", ["baselines/bun-http-prisma.ts"]),
  baselineFor: "database",
  layer: "data-access",
};

export const BASELINES: readonly Baseline[] = [
  {
    name: "node-http",
    framework: "node-http",
    variant: "baseline: node:http only",
    language: "typescript",
    runtime: "node",
    dir: "bench",
    start: { command: process.execPath, args: ["baselines/node-http.ts"] },
    baselineFor: "framework",
    layer: "limit",
  },
  {
    name: "node-http-pg",
    framework: "node-http-pg",
    variant: "baseline: node:http + pg, prepared statements",
    language: "typescript",
    runtime: "node",
    dir: "bench",
    start: { command: process.execPath, args: ["baselines/node-http-pg.ts"] },
    baselineFor: "database",
    layer: "limit",
  },
  NODE_HTTP_PRISMA,
  withSqlDataAccess(NODE_HTTP_PRISMA),
  // Each other runtime's own raw server, the same route tables (bench/baselines/): a row's framework cost is taken
  // on its own runtime, and node-http / node-http-pg ÷ these is what the runtime alone changes.
  {
    name: "bun-http",
    framework: "bun-http",
    variant: "baseline: Bun.serve only",
    language: "typescript",
    dir: "bench",
    ...onRuntime("bun", ["baselines/bun-http.ts"]),
    baselineFor: "framework",
    layer: "limit",
  },
  {
    name: "deno-http",
    framework: "deno-http",
    variant: "baseline: Deno.serve only",
    language: "typescript",
    dir: "bench",
    ...onRuntime("deno", [...DENO_RUN, "baselines/deno-http.ts"]),
    baselineFor: "framework",
    layer: "limit",
  },
  {
    name: "bun-http-pg",
    framework: "bun-http-pg",
    variant: "baseline: Bun.serve + Bun's SQL client (Bun.SQL), prepared statements",
    language: "typescript",
    dir: "bench",
    ...onRuntime("bun", ["baselines/bun-http-pg.ts"]),
    baselineFor: "database",
    layer: "limit",
  },
  BUN_HTTP_PRISMA,
  withSqlDataAccess(BUN_HTTP_PRISMA),
  {
    name: "raw-asgi",
    framework: "raw-asgi",
    variant: "baseline: raw ASGI on uvicorn + FastAPI's asyncpg data access (packages/python), no framework",
    language: "python",
    runtime: "python",
    dir: "apps/fastapi",
    // FastAPI's own build (the contract export api_contract's problem catalogue reads); run once for both.
    build: { command: process.execPath, args: ["../../packages/python/scripts/export-contract.ts"] },
    // FastAPI's venv, where packages/python is installed; no PYTHONPATH: the baseline imports no app.
    start: { command: `${REPO_ROOT}apps/fastapi/.venv/bin/python`, args: [`${REPO_ROOT}bench/baselines/raw_asgi.py`] },
    baselineFor: "database",
    layer: "data-access",
  },
];

/** How an A/A twin is named: the baseline's name and this suffix (`node-http~aa`). */
export const TWIN_SUFFIX = "~aa";

/**
 * The A/A twin of a limit baseline: the same program as a second process, on its own copy of the data, measured
 * through the same path as every target. Its ratio to the baseline should be 1; its interval is the run's
 * resolving power.
 */
export const twinOf = (baseline: Baseline): Baseline => ({
  ...baseline,
  name: `${baseline.name}${TWIN_SUFFIX}`,
  variant: `${baseline.variant} — a second process of it (the A/A check)`,
  twinOf: baseline.name,
});

/**
 * The A/A twins, one per kind of scenario: of the reference baseline (node-http, node-http-pg). The A/A line is
 * the resolving power of the measurement path — the load generator, the machine, the pairing — which every target
 * shares whatever runs it; a twin per runtime would cost a target's time in every round for a second reading of it.
 */
export const TWINS: readonly Baseline[] = BASELINES.filter((b) => b.layer === "limit" && b.runtime === "node").map(
  twinOf,
);

/**
 * The reference baseline of a kind of scenario, Node's limit (node-http, node-http-pg): every row's ratio to it is
 * in results.json's `rpsRatio`/`cpuRatio`, and its A/A twin gives the run's resolving power.
 */
export const baselineFor = (kind: ScenarioKind): Baseline =>
  BASELINES.find((b) => b.baselineFor === kind && b.layer === "limit" && b.runtime === "node") as Baseline;

/**
 * A runtime's own limit baseline for a kind of scenario (node-http, bun-http, deno-http; node-http-pg, bun-http-pg),
 * the one a row's framework cost on that runtime is taken to; undefined where the runtime has none (Deno on the
 * database scenarios, Python).
 */
export const runtimeBaselineFor = (
  kind: ScenarioKind,
  runtime: Runtime,
  baselines: readonly Baseline[] = BASELINES,
): Baseline | undefined =>
  baselines.find((b) => b.baselineFor === kind && b.layer === "limit" && b.runtime === runtime);

/**
 * The data-access baseline of a kind of scenario for an implementation: its language, its runtime, and sql mode or
 * not (node-http-prisma for Node rows, bun-http-prisma for Bun rows, raw-asgi for Python; none for Deno).
 */
export const layerBaselineFor = (
  kind: ScenarioKind,
  impl: { name: string; language: Implementation["language"]; runtime: Runtime },
  baselines: readonly Baseline[] = BASELINES,
): Baseline | undefined =>
  baselines.find(
    (b) =>
      b.baselineFor === kind &&
      b.layer === "data-access" &&
      b.language === impl.language &&
      b.runtime === impl.runtime &&
      inSqlMode(b.name) === inSqlMode(impl.name),
  );

/**
 * The runtimes' own limit baselines a scenario measures, by runtime: one for each runtime of the implementations
 * (Node's always, the reference), where that runtime has one and it can run here.
 */
export function runtimeBaselinesOf(
  impls: readonly Pick<Implementation, "runtime">[],
  kind: ScenarioKind,
  baselines: readonly Baseline[] = BASELINES,
): Partial<Record<Runtime, string>> {
  const found: Partial<Record<Runtime, string>> = { node: baselineFor(kind).name };
  for (const { runtime } of impls) {
    const own = runtimeBaselineFor(kind, runtime, baselines);
    if (own && !own.unavailable) found[runtime] = own.name;
  }
  return found;
}

/** The baselines a run would measure but cannot start here (their runtime has no binary), each with the reason. */
export function unavailableBaselines(
  options: { impls: readonly Implementation[] },
  selected: readonly ScenarioName[],
  baselines: readonly Baseline[] = BASELINES,
): Array<{ name: string; reason: string }> {
  const wanted = (b: Baseline) =>
    selected.some((s) => {
      const kind = scenarios[s].kind;
      return options.impls.some(
        (i) => runtimeBaselineFor(kind, i.runtime, baselines) === b || layerBaselineFor(kind, i, baselines) === b,
      );
    });
  return baselines
    .filter((b) => b.unavailable && wanted(b))
    .map((b) => ({
      name: b.name,
      reason: b.unavailable as string,
    }));
}

/**
 * The targets a scenario runs on: the implementations, the reference baseline of its kind (Node's), each other
 * runtime's own limit baseline when a row of that runtime is measured, and the data-access baseline of each
 * language and runtime present. Baselines whose runtime cannot run here are left out (unavailableBaselines says
 * why). With --target, only the targets named there.
 */
export function targetsOfScenario(
  options: { impls: readonly Implementation[]; targets: ReadonlyArray<{ name: string }> },
  scenario: ScenarioName,
  baselines: readonly Baseline[] = BASELINES,
): string[] {
  const kind = scenarios[scenario].kind;
  const layers = new Set(options.impls.map((i) => layerBaselineFor(kind, i, baselines)?.name));
  // With an implementation in sql mode, its Prisma baseline runs in both modes, side by side.
  for (const layer of [...layers]) if (layer && inSqlMode(layer)) layers.add(layer.slice(0, -SQL_SUFFIX.length));
  const limits = new Set(Object.values(runtimeBaselinesOf(options.impls, kind, baselines)));
  const measured = baselines
    .filter((b) => b.baselineFor === kind && !b.unavailable && (limits.has(b.name) || layers.has(b.name)))
    .map((b) => b.name);
  // The limit's A/A twin runs beside it (not with --target: the bench starts nothing there).
  const twins = options.targets.length > 0 ? [] : [`${baselineFor(kind).name}${TWIN_SUFFIX}`];
  const names = [...measured, ...twins, ...options.impls.map((i) => i.name)];
  return options.targets.length > 0 ? names.filter((n) => options.targets.some((t) => t.name === n)) : names;
}

/**
 * What one round of a scenario measures: a cell per target (sequential), or a pair per target but the limit
 * baseline, which is the other side of the pairs that reach it (duet).
 */
export function measurementsPerRound(
  options: { impls: readonly Implementation[]; targets: ReadonlyArray<{ name: string }>; pairing: string },
  scenario: ScenarioName,
): number {
  const targets = targetsOfScenario(options, scenario).length;
  return options.pairing === "duet" ? Math.max(0, targets - 1) : targets;
}
