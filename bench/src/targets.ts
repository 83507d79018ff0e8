// What the bench runs: the registered implementations (packages/harness) and the two no-framework baselines,
// built and started exactly as in production, each on its own copy of the seeded database.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Implementation, REPO_ROOT } from "@api-ref/harness";
import { inSqlMode, SQL_SUFFIX } from "./results.ts";
import { type ScenarioKind, type ScenarioName, scenarios } from "./scenarios.ts";

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

/** packages/core with no framework around it; listed twice below, in its client and its sql mode. */
const NODE_HTTP_PRISMA: Baseline = {
  name: "node-http-prisma",
  framework: "node-http-prisma",
  variant: "baseline: node:http + packages/core (Prisma), no framework",
  language: "typescript",
  dir: "bench",
  start: { command: process.execPath, args: ["baselines/node-http-prisma.ts"] },
  baselineFor: "database",
  layer: "data-access",
};

export const BASELINES: readonly Baseline[] = [
  {
    name: "node-http",
    framework: "node-http",
    variant: "baseline: node:http only",
    language: "typescript",
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
    dir: "bench",
    start: { command: process.execPath, args: ["baselines/node-http-pg.ts"] },
    baselineFor: "database",
    layer: "limit",
  },
  NODE_HTTP_PRISMA,
  withSqlDataAccess(NODE_HTTP_PRISMA),
  {
    name: "raw-asgi",
    framework: "raw-asgi",
    variant: "baseline: raw ASGI on uvicorn + FastAPI's asyncpg data access (packages/python), no framework",
    language: "python",
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

/** The A/A twins, one per limit baseline. */
export const TWINS: readonly Baseline[] = BASELINES.filter((b) => b.layer === "limit").map(twinOf);

/**
 * An implementation in core's `sql` data-access mode (DATA_ACCESS=sql: the hot routes through Prisma's raw-SQL
 * path), measured as a row of its own named `NAME[sql]`. Its data-access baseline is node-http-prisma[sql].
 */
export function withSqlDataAccess<T extends Implementation>(impl: T): T {
  return {
    ...impl,
    name: `${impl.name}${SQL_SUFFIX}`,
    variant: `${impl.variant}, DATA_ACCESS=sql`,
    start: { ...impl.start, env: { ...impl.start.env, DATA_ACCESS: "sql" } },
  };
}

/** `--impl` names: a registered implementation, or one in sql mode (`NAME[sql]`, Node implementations only). */
export function implementationNamed(registry: readonly Implementation[], name: string): Implementation | undefined {
  const base = registry.find((i) => i.name === (inSqlMode(name) ? name.slice(0, -SQL_SUFFIX.length) : name));
  if (!base || !inSqlMode(name)) return base;
  return base.language === "typescript" ? withSqlDataAccess(base) : undefined;
}

/** The limit baseline of a kind of scenario: every ratio is taken to it. */
export const baselineFor = (kind: ScenarioKind): Baseline =>
  BASELINES.find((b) => b.baselineFor === kind && b.layer === "limit") as Baseline;

/** The data-access baseline of a kind of scenario for an implementation (its language, and sql mode or not). */
export const layerBaselineFor = (
  kind: ScenarioKind,
  impl: { name: string; language: Implementation["language"] },
): Baseline | undefined =>
  BASELINES.find(
    (b) =>
      b.baselineFor === kind &&
      b.layer === "data-access" &&
      b.language === impl.language &&
      inSqlMode(b.name) === inSqlMode(impl.name),
  );

/** The same implementation, started through `taskset -c <cpus>` so that it and every thread it makes stay there. */
export function pinned(impl: Implementation, cpus: string | undefined): Implementation {
  if (!cpus) return impl;
  return {
    ...impl,
    start: { ...impl.start, command: "taskset", args: ["-c", cpus, impl.start.command, ...impl.start.args] },
  };
}

function installedVersion(fromDir: string, dep: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const file = join(dir, "node_modules", dep, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The installed version of every direct dependency of an app directory, by name: from package.json and
 * node_modules for Node apps, from the exact pins of requirements.txt for Python apps.
 */
export function dependencyVersions(dir: string): Record<string, string> {
  const manifest = join(dir, "package.json");
  const requirements = join(dir, "requirements.txt");
  if (!existsSync(manifest) && existsSync(requirements)) {
    const pins: Record<string, string> = {};
    for (const line of readFileSync(requirements, "utf8").split("\n")) {
      const match = /^\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;#]+)/.exec(line);
      if (match?.[1] && match[2]) pins[match[1]] = match[2];
    }
    return pins;
  }
  if (!existsSync(manifest)) return {};
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { dependencies?: Record<string, string> };
  const versions: Record<string, string> = {};
  for (const [dep, spec] of Object.entries(pkg.dependencies ?? {})) {
    versions[dep] = spec.startsWith("workspace:") ? "workspace" : (installedVersion(dir, dep) ?? spec);
  }
  return versions;
}

export const implDir = (impl: Implementation) => join(REPO_ROOT, impl.dir);

/**
 * The targets a scenario runs on: the implementations, the limit baseline of its kind, and the data-access
 * baseline of each implementation language present. With --target, only the targets named there.
 */
export function targetsOfScenario(
  options: { impls: readonly Implementation[]; targets: ReadonlyArray<{ name: string }> },
  scenario: ScenarioName,
): string[] {
  const kind = scenarios[scenario].kind;
  const layers = new Set(options.impls.map((i) => layerBaselineFor(kind, i)?.name));
  // With an implementation in sql mode, the Prisma baseline runs in both modes, side by side.
  if (layers.has("node-http-prisma[sql]")) layers.add("node-http-prisma");
  const baselines = BASELINES.filter((b) => b.baselineFor === kind && (b.layer === "limit" || layers.has(b.name))).map(
    (b) => b.name,
  );
  // The limit's A/A twin runs beside it (not with --target: the bench starts nothing there).
  const twins = options.targets.length > 0 ? [] : [`${baselineFor(kind).name}${TWIN_SUFFIX}`];
  const names = [...baselines, ...twins, ...options.impls.map((i) => i.name)];
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
