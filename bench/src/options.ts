// `pnpm bench` options: parsed and checked completely before anything starts, so that a typo costs a message
// and exit code 2, never a half-run benchmark.
import { parseArgs } from "node:util";
import { type Implementation, implementations } from "@api-ref/contract/implementations";
import { parseScale } from "@api-ref/db/seed";
import { SCENARIO_NAMES, type ScenarioName, scenarios } from "./scenarios.ts";

export const CONNECTION_CHOICES = [25, 100, 200, 300] as const;

export interface BenchOptions {
  impls: Implementation[];
  scenarios: ScenarioName[];
  /** One or more of CONNECTION_CHOICES; each scenario is measured at each. */
  connections: number[];
  durationS: number;
  warmupS: number;
  /** The default run's time budget in minutes; per-cell times shrink (never below 1 s) to fit it. */
  budgetMinutes: number | undefined;
  repeats: number;
  /** Fixed-rate mode (requests per second), or undefined for as-fast-as-possible. */
  rate: number | undefined;
  pipelining: number;
  scale: number;
  poolSize: number;
  /** Requests checked per scenario and server before measuring. */
  verifySample: number;
  smoke: boolean;
  pin: boolean;
  /** Where results go (default bench/results/<timestamp>). */
  outDir: string | undefined;
}

export class UsageError extends Error {}

export const DEFAULT_BUDGET_MINUTES = 15;
/** What a run costs besides its cells: provisioning and seeding, and per target a build, start and verification. */
const FIXED_SECONDS = 20;
const PER_TARGET_SECONDS = 6;
/**
 * Per cell besides warm-up and measurement (drains, restock, samplers, setting up 100 connections): measured
 * 0.1–0.4 s on framework cells and 0.6–1 s on database cells.
 */
const PER_CELL_SECONDS = 0.8;
const MIN_WARMUP_S = 0.5;

/**
 * Fits warm-up and measured time into the budget when they were not given: full 2 s + 5 s while the run fits,
 * else both shrink in the same proportion, never below 0.5 s of warm-up and 1 s of measurement. With every
 * implementation registered a default run stays near its budget; `--duration 5` asks for the long cells anyway.
 */
export function fitToBudget(
  options: BenchOptions,
  targets: number,
  cells: number,
  /** Cells whose measured length is fixed (a scenario's minDurationS), not among `cells`, and their seconds. */
  fixed: { cells: number; measuredSeconds: number } = { cells: 0, measuredSeconds: 0 },
): BenchOptions {
  if (options.budgetMinutes === undefined || cells === 0) return options;
  const fixedSeconds = fixed.measuredSeconds + fixed.cells * (MIN_WARMUP_S + PER_CELL_SECONDS);
  const perCell =
    (options.budgetMinutes * 60 - FIXED_SECONDS - PER_TARGET_SECONDS * targets - fixedSeconds) / cells -
    PER_CELL_SECONDS;
  const full = options.warmupS + options.durationS;
  if (perCell >= full) return options;
  const scale = Math.max(0, perCell) / full;
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    ...options,
    warmupS: round(Math.max(MIN_WARMUP_S, options.warmupS * scale)),
    durationS: round(Math.max(1, options.durationS * scale)),
  };
}

export const USAGE = `usage: pnpm bench [options]

  --impl NAME[,NAME...]      implementations to measure (default: every registered one: ${implementations.map((i) => i.name).join(", ")})
  --scenario NAME[,NAME...]  scenarios (default: all): ${SCENARIO_NAMES.join(", ")}
  --connections N[,N...]     concurrent connections, from ${CONNECTION_CHOICES.join("/")} (default 100; smoke 25)
  --duration S               measured seconds per cell (default 5, shortened to fit --budget; smoke 1; auth-login at least 3)
  --warmup S                 warm-up seconds before each measured run (default 2, shortened to fit --budget; smoke 0)
  --budget MIN               time budget of a run without --duration/--warmup (default 15 minutes)
  --repeats N                runs of each cell, implementations interleaved (default 3; smoke 1)
  --rate R                   fixed rate in requests/s: latency without coordinated omission, instead of max throughput
  --pipelining N             requests in flight per connection (default 1; not with --rate or crud-mix)
  --scale X                  seed data scale (default 1 = 1,000 users, 5,000 products, 10,000 orders)
  --pool-size N              DB_POOL_SIZE given to every implementation and baseline (default 10)
  --verify-sample N          requests checked against the contract per scenario and server (default 24; smoke 12)
  --smoke                    every scenario and implementation, about a second each, one repeat, no warm-up (for CI)
  --no-pin                   do not pin the server and the load generator to separate cores
  --out DIR                  results directory (default bench/results/<timestamp>)
  -h, --help                 this text`;

function number(name: string, raw: string, check: (n: number) => boolean, rule: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || !check(n))
    throw new UsageError(`--${name} must be ${rule}, got "${raw}"`);
  return n;
}

function list(name: string, raw: string): string[] {
  const items = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${name} needs at least one value`);
  return items;
}

/** Parses argv (without node and script); throws UsageError with a message fit for a user. */
export function parseOptions(argv: string[]): BenchOptions | "help" {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        impl: { type: "string" },
        scenario: { type: "string" },
        connections: { type: "string" },
        duration: { type: "string" },
        warmup: { type: "string" },
        budget: { type: "string" },
        repeats: { type: "string" },
        rate: { type: "string" },
        pipelining: { type: "string" },
        scale: { type: "string" },
        "pool-size": { type: "string" },
        "verify-sample": { type: "string" },
        smoke: { type: "boolean" },
        "no-pin": { type: "boolean" },
        out: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return "help";
  const str = (key: string) => values[key] as string | undefined;
  const smoke = values.smoke === true;

  let impls: Implementation[] = [...implementations];
  const implArg = str("impl");
  if (implArg !== undefined) {
    const wanted = list("impl", implArg);
    const unknown = wanted.filter((n) => !implementations.some((i) => i.name === n));
    if (unknown.length > 0) {
      throw new UsageError(
        `unknown implementation ${unknown.join(", ")}; known: ${implementations.map((i) => i.name).join(", ")}`,
      );
    }
    impls = implementations.filter((i) => wanted.includes(i.name));
  }

  let scenarioNames: ScenarioName[] = [...SCENARIO_NAMES];
  const scenarioArg = str("scenario");
  if (scenarioArg !== undefined) {
    const wanted = list("scenario", scenarioArg);
    const unknown = wanted.filter((n) => !(SCENARIO_NAMES as readonly string[]).includes(n));
    if (unknown.length > 0)
      throw new UsageError(`unknown scenario ${unknown.join(", ")}; known: ${SCENARIO_NAMES.join(", ")}`);
    scenarioNames = SCENARIO_NAMES.filter((n) => wanted.includes(n));
  }

  // Smoke runs check that everything answers correctly under load, not how fast: fewer connections queue less.
  let connections = smoke ? [25] : [100];
  const connectionsArg = str("connections");
  if (connectionsArg !== undefined) {
    connections = list("connections", connectionsArg).map((raw) =>
      number(
        "connections",
        raw,
        (n) => (CONNECTION_CHOICES as readonly number[]).includes(n),
        `one of ${CONNECTION_CHOICES.join(", ")}`,
      ),
    );
    connections = [...new Set(connections)];
  }

  const durationArg = str("duration");
  const durationS = durationArg
    ? number("duration", durationArg, (n) => n >= 0.5 && n <= 600, "a number of seconds from 0.5 to 600")
    : smoke
      ? 1
      : 5;
  const warmupArg = str("warmup");
  const warmupS = warmupArg
    ? number("warmup", warmupArg, (n) => n >= 0 && n <= 600, "a number of seconds from 0 to 600")
    : smoke
      ? 0
      : 2;
  const budgetArg = str("budget");
  if (budgetArg !== undefined && (durationArg || warmupArg || smoke)) {
    throw new UsageError("--budget applies to runs without --duration, --warmup and --smoke");
  }
  const budgetMinutes =
    durationArg || warmupArg || smoke
      ? undefined
      : budgetArg
        ? number("budget", budgetArg, (n) => n >= 1 && n <= 1440, "a number of minutes from 1 to 1440")
        : DEFAULT_BUDGET_MINUTES;
  const repeatsArg = str("repeats");
  const repeats = repeatsArg
    ? number("repeats", repeatsArg, (n) => Number.isInteger(n) && n >= 1 && n <= 20, "an integer from 1 to 20")
    : smoke
      ? 1
      : 3;
  const rateArg = str("rate");
  const rate = rateArg
    ? number(
        "rate",
        rateArg,
        (n) => Number.isInteger(n) && n >= 1 && n <= 1_000_000,
        "an integer from 1 to 1000000 (requests/s)",
      )
    : undefined;
  const pipeliningArg = str("pipelining");
  const pipelining = pipeliningArg
    ? number("pipelining", pipeliningArg, (n) => Number.isInteger(n) && n >= 1 && n <= 100, "an integer from 1 to 100")
    : 1;
  if (rate !== undefined && pipelining > 1) {
    throw new UsageError(
      "--pipelining cannot be combined with --rate (the fixed-rate generator sends one request per connection at a time)",
    );
  }
  if (pipelining > 1) {
    const sequential = scenarioNames.filter((n) => scenarios[n].sequential);
    if (sequential.length > 0) {
      throw new UsageError(
        `--pipelining ${pipelining} cannot apply to ${sequential.join(", ")} (each request depends on an earlier response); choose other scenarios with --scenario`,
      );
    }
  }
  if (rate !== undefined && connections.some((c) => c > rate)) {
    // Not an error in principle, but connections beyond the rate never carry a request: almost surely a typo.
    throw new UsageError(
      `--rate ${rate} is below --connections ${Math.max(...connections)}; use a rate of at least one request per connection per second`,
    );
  }

  let scale = 1;
  const scaleArg = str("scale");
  if (scaleArg !== undefined) {
    try {
      scale = parseScale(scaleArg);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const poolArg = str("pool-size");
  const poolSize = poolArg
    ? number("pool-size", poolArg, (n) => Number.isInteger(n) && n >= 1 && n <= 200, "an integer from 1 to 200")
    : 10;
  const sampleArg = str("verify-sample");
  const verifySample = sampleArg
    ? number("verify-sample", sampleArg, (n) => Number.isInteger(n) && n >= 1 && n <= 1000, "an integer from 1 to 1000")
    : smoke
      ? 12
      : 24;
  if (impls.length === 0)
    throw new UsageError("no implementations are registered (packages/contract/src/implementations.ts)");

  return {
    impls,
    scenarios: scenarioNames,
    connections,
    durationS,
    warmupS,
    budgetMinutes,
    repeats,
    rate,
    pipelining,
    scale,
    poolSize,
    verifySample,
    smoke,
    pin: values["no-pin"] !== true,
    outDir: str("out"),
  };
}
