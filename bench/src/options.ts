import { resolve } from "node:path";
// `pnpm bench` options: parsed and checked completely before anything starts, so that a typo costs a message
// and exit code 2, never a half-run benchmark.
import { parseArgs } from "node:util";
import { parseScale } from "@api-ref/db/seed";
import { type Implementation, implementations, optionsConfig } from "@api-ref/harness";
import type { Pairing } from "./results.ts";
import { SCENARIO_NAMES, type ScenarioName, scenarios } from "./scenarios.ts";
import { BASELINES, implementationNamed } from "./targets.ts";

export const CONNECTION_CHOICES = [25, 100, 200, 300] as const;

export interface BenchOptions {
  impls: Implementation[];
  scenarios: ScenarioName[];
  /** One or more of CONNECTION_CHOICES; each scenario is measured at each. */
  connections: number[];
  durationS: number;
  warmupS: number;
  /** Extra repeats (beyond --repeats) are run only while the whole run's projected length stays within this. */
  budgetMinutes: number | undefined;
  /** Repeats every cell gets at least. */
  repeats: number;
  /** Repeats a cell may get while its headline ratios' 95% intervals are wider than ±precision. */
  maxRepeats: number;
  /** Wanted relative half-width of each headline ratio's 95% confidence interval (0.05 = ±5%). */
  precision: number;
  /** Server processes per implementation and baseline (node:cluster, uvicorn workers); the pool is divided. */
  workers: number;
  /** Already-running servers to measure instead of starting any (--target name=URL). */
  targets: Array<{ name: string; url: string }>;
  /** Fixed-rate mode (requests per second), or undefined for as-fast-as-possible. */
  rate: number | undefined;
  /**
   * Latency against offered load: fixed arrival rates (requests/s) run one after another, a list or a ramp
   * expanded (`--rate 10..1500x8`). Undefined unless --rate names more than one rate (one rate is `rate`).
   */
  rates: number[] | undefined;
  /** Capacity at a latency bound: the highest fixed rate at which this percentile stays under boundMs. */
  slo: { percentile: number; boundMs: number } | undefined;
  /** CPU quota for each server (all its processes), in cores (0.5 = half a core); undefined: no limit. */
  cpus: number | undefined;
  /** Memory limit for each server (all its processes), in bytes; undefined: no limit. */
  memoryBytes: number | undefined;
  pipelining: number;
  scale: number;
  /** DB_POOL_SIZE in all: each of `workers` processes gets poolSize / workers. */
  poolSize: number;
  /** Requests checked per scenario and server before measuring. */
  verifySample: number;
  smoke: boolean;
  /** --all: every registered implementation and every scenario. */
  all: boolean;
  pin: boolean;
  /** --profile: a CPU profile of each server over every measured cell, flame graphs and a layer table in the report. */
  profile: boolean;
  /** Where results go (default bench/results/<timestamp>). */
  outDir: string | undefined;
  /**
   * How each ratio's two sides are measured: one after the other (sequential), or at the same time under equal
   * CPU quotas (duet). `pairingAsked`: given on the command line (then a machine that cannot do it refuses;
   * the default falls back to sequential and says so).
   */
  pairing: Pairing;
  pairingAsked: boolean;
  /** duet: the CPU quota of each side's control group, in cores. */
  duetCpus: number;
  /** Seconds each target is loaded, not measured, before a scenario's first round (runner/settle.ts). */
  settleS: number;
  /** --disturb N: N synthetic CPU hogs during the run (the precision study's disturbance); undefined: none. */
  disturb: number | undefined;
  /** --handicap-twin: the A/A twin runs with V8's optimising compilers off, to show that the A/A check catches a slowed copy. */
  handicapTwin: boolean;
  /**
   * When servers are started: once for the whole run (`run`), or anew before every measured cell (`cell`), so that
   * each repeat samples a new process and the intervals carry the process-to-process variation (runner/restart.ts).
   */
  restart: Restart;
}

export const RESTARTS = ["cell", "run"] as const;
export type Restart = (typeof RESTARTS)[number];

export const PAIRINGS = ["sequential", "duet"] as const;
/**
 * The default pairing, chosen by the precision study (bench/results/precision-study/README.md): on a quiet machine
 * duet was no more precise than sequential and its framework ratios disagreed with sequential's beyond their
 * intervals (a bias not yet explained), so sequential stays the default; duet holds its figures under a disturbance
 * that biases sequential's, and is there to choose.
 */
export const DEFAULT_PAIRING: Pairing = "sequential";
/**
 * duet: each side's CPU quota. Two sides at 0.4 of a core leave 1.2 cores of this 2-core machine to their two load
 * generators and PostgreSQL's shared work, so that both sides stay saturated (the precision study).
 */
export const DEFAULT_DUET_CPUS = 0.4;
/** Seconds of load that bring a server's JIT and heap to their working state (the precision study). */
export const DEFAULT_SETTLE_S = 5;
/**
 * When a measuring run starts its servers: a fresh process per cell. The precision study (its sequential-fresh runs
 * against sequential-quiet and -again) saw the A/A line at ±3.0% with a fresh process per cell against ±8.9% and
 * ±10.3% with one process per run, in 1.5 times the time; runner/restart.ts says why.
 */
export const DEFAULT_RESTART: Restart = "cell";

export class UsageError extends Error {}

/** The implementations a default run measures: the design's core set (--all or --impl for the others). */
export const CORE_IMPLEMENTATIONS = [
  "express",
  "fastify-zod",
  "fastify-json-schema",
  "nestjs-express",
  "nestjs-fastify",
] as const;
/**
 * The scenarios a default run measures, one per kind of cost: hello (the framework's own per-request cost),
 * echo (body parsing and serialisation), user-by-id (a single-row read through the data access), orders-list
 * (a page with relations: the ORM's query strategy) and order-create (a transactional write). The others repeat
 * one of these costs (health and metrics like hello, product-by-id like user-by-id, products-list like
 * orders-list, crud-mix a mix of them) or measure scrypt rather than the framework (auth-login); --all runs them.
 */
export const DECIDING_SCENARIOS = ["hello", "echo", "user-by-id", "orders-list", "order-create"] as const;

export const DEFAULT_BUDGET_MINUTES = 20;
export const DEFAULT_MAX_REPEATS = 10;
export const DEFAULT_PRECISION = 0.05;
/** What a run costs besides its cells: provisioning and seeding, and per target a build, start and verification. */
const FIXED_SECONDS = 20;
const PER_TARGET_SECONDS = 6;
/**
 * Per cell besides warm-up and measurement (drains, restock, samplers, setting up 100 connections): measured
 * 0.1–0.4 s on framework cells and 0.6–1 s on database cells.
 */
export const PER_CELL_SECONDS = 0.8;

/** How long a run takes: the seconds at its least repeats, and at its most (max repeats, or the budget). */
export function estimateSeconds(
  options: Pick<BenchOptions, "warmupS" | "durationS" | "repeats" | "maxRepeats" | "budgetMinutes">,
  /**
   * Per scenario; `durationS` is its measured seconds where they differ from --duration (planScenario's), and
   * `settleS` the seconds its settling takes before the first round (with --restart cell: --settle, each cell's
   * least warm-up), `restartS` what a restart costs per cell (only with --restart cell).
   */
  plan: Array<{ targets: number; connections: number; durationS?: number; settleS?: number; restartS?: number }>,
  targets: number,
): { min: number; max: number } {
  // With --restart cell a cell's warm-up settles its new process (at least --settle seconds), and the restart adds.
  const perCell = (s: (typeof plan)[number]) =>
    (s.restartS === undefined ? options.warmupS : Math.max(options.warmupS, s.settleS ?? 0) + s.restartS) +
    (s.durationS ?? options.durationS) +
    PER_CELL_SECONDS;
  const perRepeat = plan.reduce((n, s) => n + s.targets * s.connections * perCell(s), 0);
  const fixed =
    FIXED_SECONDS +
    PER_TARGET_SECONDS * targets +
    plan.reduce((n, s) => n + (s.restartS === undefined ? (s.settleS ?? 0) : 0), 0);
  const min = fixed + perRepeat * options.repeats;
  const most = fixed + perRepeat * options.maxRepeats;
  const budget = options.budgetMinutes === undefined ? Number.POSITIVE_INFINITY : options.budgetMinutes * 60;
  return { min, max: Math.max(min, Math.min(most, budget)) };
}

export const USAGE = `usage: pnpm bench [options]

  --impl NAME[,NAME...]      implementations to measure (default: the core set ${CORE_IMPLEMENTATIONS.join(", ")}; registered: ${implementations.map((i) => i.name).join(", ")}; NAME[sql]: a Node implementation with DATA_ACCESS=sql)
  --scenario NAME[,NAME...]  scenarios (default: ${DECIDING_SCENARIOS.join(", ")}): ${SCENARIO_NAMES.join(", ")}
  --all                      every registered implementation and every scenario (prints how long it will take)
  --connections N[,N...]     concurrent connections, from ${CONNECTION_CHOICES.join("/")} (default 100; smoke 25)
  --duration S               measured seconds per cell (default 3; smoke 0.25; the auth routes at least 3, in smoke 1)
  --warmup S                 warm-up seconds before each measured run (default 2; smoke 0)
  --settle S                 seconds each server is loaded before it is first measured: before a scenario's first
                             round, or with --restart cell before every cell (default ${DEFAULT_SETTLE_S}; smoke 0)
  --restart WHEN             cell: a fresh server process for every measured cell, so that the intervals include
                             how much one process differs from the next; run: each server started once for the
                             whole run (default ${DEFAULT_RESTART}; run with --smoke, --pairing duet, --rate lists, --slo, --profile, --target)
  --repeats N                runs of each cell at least, implementations interleaved (default 3; smoke 2)
  --max-repeats N            runs of each cell at most, while a headline ratio is less precise than --precision (default ${DEFAULT_MAX_REPEATS}; smoke 2)
  --precision P              wanted half-width of each headline ratio's 95% interval, in % or as a fraction (default 5%)
  --budget MIN               extra repeats only while the run stays within MIN minutes (default ${DEFAULT_BUDGET_MINUTES}; none with --all)
  --workers N                server processes per implementation and baseline (node:cluster, uvicorn workers; default 1)
  --target NAME=URL[,...]    measure servers already running elsewhere (registered implementation or baseline
                             names, or a name of your own for a server outside the repository); database
                             scenarios need DATABASE_URL (their database) and JWT_SECRET (their secret)
  --rate R                   fixed rate in requests/s: latency without coordinated omission, instead of max throughput
  --rate R,R,...             latency against offered load: one fixed-rate run per rate, p50/p99 per rate charted
  --rate FROM..TOxN          the same over a ramp: N evenly spaced rates from FROM to TO inclusive (10..1500x8)
  --slo pP<BOUND             capacity at a latency bound (p50/p90/p95/p99/p99.9, bound in us/ms/s, e.g. p99<50ms):
                             the highest fixed rate keeping that percentile under the bound with no errors,
                             found by short probes (doubling, then bisection to 10%), confirmed by a full run
  --cpus C                   CPU quota per server, all its workers together, in cores (e.g. 0.5; cgroups, root)
  --memory SIZE              memory limit per server, all its workers together (e.g. 256M, 1G; cgroups, root)
  --pipelining N             requests in flight per connection (default 1; not with --rate, crud-mix or auth-register)
  --scale X                  seed data scale (default 1 = 1,000 users, 5,000 products, 10,000 orders)
  --pool-size N              database connections per implementation and baseline, divided among its workers (default 10)
  --verify-sample N          requests checked against the contract per scenario and server (default 24; smoke 12)
  --smoke                    every scenario and implementation, a quarter second each, two repeats, no warm-up (for CI)
  --no-pin                   do not pin the server and the load generator to separate cores
  --profile                  CPU profile of each server over every measured cell: flame graphs and the top functions
                             by layer in the report (Node: the inspector's sampler; FastAPI: py-spy, if installed)
  --out DIR                  results directory, relative to where pnpm was run (default bench/results/<timestamp>)
  --pairing MODE             sequential (default): one target at a time, pinned; duet: each target at the same time
                             as its baseline, each in its own control group with an equal CPU quota, ratios of
                             requests per CPU-second (bench/results/precision-study says when to use which)
  --duet-cpus C              duet: the CPU quota of each side, in cores (default ${DEFAULT_DUET_CPUS})
  --disturb N                run N bursty CPU hogs during the run (a reproducible busy machine, for precision studies)
  --handicap-twin            start the A/A twin with V8's optimising compilers off: the run must then fail its A/A check
  --compare OLD [NEW]        compare two runs' ratios: faster / slower / can't tell, by both runs' A/A lines
  --preset ID                a published claim's setup, scaled to this machine, ending with "claimed vs measured
                             here" (bench/claims/published-claims.json; explicit options win)
  --claims                   every preset in one run (~23 min) and one page answering all the articles
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

/** The command line's options: those that take a value, then the flags. */
const OPTIONS = optionsConfig(
  [
    "impl",
    "scenario",
    "connections",
    "duration",
    "warmup",
    "budget",
    "repeats",
    "max-repeats",
    "precision",
    "workers",
    "target",
    "rate",
    "slo",
    "cpus",
    "memory",
    "pipelining",
    "scale",
    "pool-size",
    "verify-sample",
    "out",
    "pairing",
    "duet-cpus",
    "disturb",
    "settle",
    "restart",
  ],
  ["all", "smoke", "no-pin", "profile", "handicap-twin"],
);

/** The command line's raw values, by option name. */
type Values = Record<string, string | boolean | undefined>;

/** A value-taking option's raw text, if given. */
const strOf = (values: Values) => (key: string) => values[key] as string | undefined;

/** A numeric option's value, checked against `rule`; `fallback` when the option is not given. */
function numberOption<F>(values: Values, name: string, check: (n: number) => boolean, rule: string, fallback: F) {
  const raw = strOf(values)(name);
  return raw === undefined ? fallback : number(name, raw, check, rule);
}

function integerOption<F>(values: Values, name: string, min: number, max: number, fallback: F) {
  const rule = `an integer from ${min} to ${max}`;
  return numberOption(values, name, (n) => Number.isInteger(n) && n >= min && n <= max, rule, fallback);
}

/** Parses argv (without node and script); throws UsageError with a message fit for a user. */
export function parseOptions(argv: string[]): BenchOptions | "help" {
  let values: Values;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return "help";
  const smoke = values.smoke === true;
  const all = values.all === true;
  const what = measuredWhat(values, smoke, all);
  const lengths = cellLengths(values, smoke, all);
  const servers = serverSetup(values, smoke);
  const remote = remoteTargets(values, what.impls, servers.workers, servers.profile);
  const load = loadShape(values, what.scenarios, what.connections);
  if ((servers.cpus !== undefined || servers.memoryBytes !== undefined) && remote.targets.length > 0) {
    throw new UsageError("--cpus and --memory limit servers the bench starts, not --target servers");
  }
  const pairing = pairingOf(values, {
    rate: load.rate !== undefined || load.rates !== undefined,
    slo: load.slo !== undefined,
    profile: servers.profile,
    remote: remote.targets.length > 0,
    cpus: servers.cpus !== undefined,
    workers: servers.workers,
  });
  const handicapTwin = values["handicap-twin"] === true;
  if (handicapTwin && remote.targets.length > 0)
    throw new UsageError("--handicap-twin starts the A/A twin: not with --target");
  if (remote.impls.length === 0 && remote.targets.length === 0)
    throw new UsageError("no implementations are registered (packages/harness/src/implementations.ts)");
  const restart = restartOf(strOf(values)("restart"), {
    smoke,
    duet: pairing.pairing === "duet",
    rates: load.rates !== undefined,
    slo: load.slo !== undefined,
    profile: servers.profile,
    remote: remote.targets.length > 0,
  });
  const out = strOf(values)("out");
  return {
    ...what,
    ...lengths,
    ...servers,
    ...remote,
    ...load,
    ...pairing,
    smoke,
    all,
    pin: values["no-pin"] !== true,
    // Relative to where `pnpm bench` was typed (pnpm runs the script in bench/ and says where it was called from).
    outDir: out === undefined ? undefined : resolve(process.env.INIT_CWD ?? process.cwd(), out),
    disturb: integerOption(values, "disturb", 1, 16, undefined),
    handicapTwin,
    restart,
  };
}

/** --impl, --scenario, --connections (and --all, --smoke): what is measured. */
function measuredWhat(values: Values, smoke: boolean, all: boolean) {
  const str = strOf(values);
  if (all && (str("impl") !== undefined || str("scenario") !== undefined)) {
    throw new UsageError("--all runs every implementation and scenario: leave out --impl and --scenario");
  }
  const wide = all || smoke;
  let impls: Implementation[] = wide
    ? [...implementations]
    : implementations.filter((i) => (CORE_IMPLEMENTATIONS as readonly string[]).includes(i.name));
  const implArg = str("impl");
  if (implArg !== undefined) {
    const wanted = list("impl", implArg);
    const unknown = wanted.filter((n) => !implementationNamed(implementations, n));
    if (unknown.length > 0) {
      throw new UsageError(
        `unknown implementation ${unknown.join(", ")}; known: ${implementations.map((i) => i.name).join(", ")} (NAME[sql] for a Node implementation in DATA_ACCESS=sql mode)`,
      );
    }
    impls = [
      ...implementations.filter((i) => wanted.includes(i.name)),
      ...wanted
        .filter((n) => n.endsWith("[sql]"))
        .map((n) => implementationNamed(implementations, n) as Implementation),
    ];
  }

  let scenarioNames: ScenarioName[] = wide
    ? [...SCENARIO_NAMES]
    : SCENARIO_NAMES.filter((n) => (DECIDING_SCENARIOS as readonly string[]).includes(n));
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
  return { impls, scenarios: scenarioNames, connections };
}

/** --duration, --settle, --warmup, --budget, --repeats, --max-repeats, --precision: how long and how often. */
function cellLengths(values: Values, smoke: boolean, all: boolean) {
  const seconds = (name: string, min: number, fallback: number) =>
    numberOption(values, name, (n) => n >= min && n <= 600, `a number of seconds from ${min} to 600`, fallback);
  // 3 s: the precision study's cells; with a fresh process per cell, more shorter cells sample more processes.
  const durationS = seconds("duration", 0.25, smoke ? 0.25 : 3);
  const settleS = seconds("settle", 0, smoke ? 0 : DEFAULT_SETTLE_S);
  const warmupS = seconds("warmup", 0, smoke ? 0 : 2);
  if (strOf(values)("budget") !== undefined && smoke) throw new UsageError("--budget does not apply to --smoke");
  const budgetMinutes = numberOption(
    values,
    "budget",
    (n) => n >= 1 && n <= 1440,
    "a number of minutes from 1 to 1440",
    smoke || all ? undefined : DEFAULT_BUDGET_MINUTES,
  );
  const repeats = integerOption(values, "repeats", 1, 50, smoke ? 2 : 3);
  const maxRepeats = integerOption(
    values,
    "max-repeats",
    1,
    50,
    smoke ? repeats : Math.max(repeats, DEFAULT_MAX_REPEATS),
  );
  if (maxRepeats < repeats) throw new UsageError(`--max-repeats ${maxRepeats} is below --repeats ${repeats}`);
  return { durationS, settleS, warmupS, budgetMinutes, repeats, maxRepeats, precision: precisionOf(values) };
}

/** --precision: a half-width in % (`5%`) or as a fraction (`0.05`); a bare number of 1 or more is read as %. */
function precisionOf(values: Values): number {
  const raw = strOf(values)("precision");
  if (raw === undefined) return DEFAULT_PRECISION;
  const percent = raw.trim().endsWith("%");
  const value = number(
    "precision",
    percent ? raw.trim().slice(0, -1) : raw,
    (n) => n > 0 && (percent ? n < 100 : n < 1 || n < 100),
    "a half-width such as 5% or 0.05",
  );
  return percent || value >= 1 ? value / 100 : value;
}

/** --workers, --profile, --cpus, --memory, --scale, --pool-size, --verify-sample: the servers and their data. */
function serverSetup(values: Values, smoke: boolean) {
  const str = strOf(values);
  const workers = integerOption(values, "workers", 1, 64, 1);
  const profile = values.profile === true;
  if (profile && workers > 1) {
    throw new UsageError("--profile samples one server process: leave out --workers (or use --workers 1)");
  }
  const cpus = numberOption(
    values,
    "cpus",
    (n) => n >= 0.01 && n <= 1024,
    "a number of cores from 0.01 (e.g. 0.5 or 2)",
    undefined,
  );
  const memoryArg = str("memory");
  const memoryBytes = memoryArg === undefined ? undefined : parseMemory(memoryArg);
  let scale = 1;
  const scaleArg = str("scale");
  if (scaleArg !== undefined) {
    try {
      scale = parseScale(scaleArg);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const poolSize = integerOption(values, "pool-size", 1, 200, 10);
  if (poolSize % workers !== 0) {
    throw new UsageError(
      `--pool-size ${poolSize} cannot be divided among ${workers} workers: every server must hold the same number of database connections; use a multiple of ${workers}`,
    );
  }
  const verifySample = integerOption(values, "verify-sample", 1, 1000, smoke ? 12 : 24);
  return { workers, profile, cpus, memoryBytes, scale, poolSize, verifySample };
}

/**
 * --target NAME=URL,…: servers already running elsewhere, measured instead of starting any. A name the registry does
 * not know is someone else's server (another stack implementing the contract), measured like ours.
 */
function remoteTargets(values: Values, impls: Implementation[], workers: number, profile: boolean) {
  const str = strOf(values);
  const targets: BenchOptions["targets"] = [];
  const targetArg = str("target");
  if (targetArg === undefined) return { targets, impls };
  const known = [...implementations.map((i) => i.name), ...BASELINES.map((b) => b.name)];
  for (const item of list("target", targetArg)) {
    const eq = item.indexOf("=");
    const name = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    if (eq < 1 || !raw) throw new UsageError(`--target takes NAME=URL, got "${item}"`);
    if (!known.includes(name) && !/^[a-z0-9][a-z0-9_-]{0,40}$/.test(name)) {
      throw new UsageError(
        `--target name "${name}": a registered name (${known.join(", ")}) or a name of your own for another server (lower-case letters, digits, - and _)`,
      );
    }
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UsageError(`--target ${name}: "${raw}" is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new UsageError(`--target ${name}: only http:// and https:// URLs, got "${raw}"`);
    }
    if (targets.some((t) => t.name === name)) throw new UsageError(`--target names ${name} twice`);
    targets.push({ name, url: url.href.replace(/\/$/, "") });
  }
  if (str("impl") !== undefined) throw new UsageError("--target names what is measured: leave out --impl");
  if (profile) throw new UsageError("--profile samples servers the bench starts, not --target servers");
  if (str("workers") !== undefined || workers > 1) {
    throw new UsageError("--workers applies to servers the bench starts, not to --target servers");
  }
  const remote = implementations.filter((i) => targets.some((t) => t.name === i.name));
  for (const { name } of targets.filter((t) => !known.includes(t.name))) {
    remote.push({
      name,
      framework: name,
      variant: "external",
      language: "other",
      // Its runtime is unknown here: it is taken to Node's baselines, as every outside server always was.
      runtime: "node",
      dir: "",
      start: { command: "", args: [] },
    });
  }
  return { targets, impls: remote };
}

/** --rate (one, a list or a ramp), --slo, --pipelining: the shape of the load. */
function loadShape(values: Values, scenarioNames: ScenarioName[], connections: number[]) {
  const str = strOf(values);
  const rateArg = str("rate");
  const rateList = rateArg === undefined ? undefined : parseRates(rateArg);
  const rate = rateList?.length === 1 ? rateList[0] : undefined;
  const rates = rateList && rateList.length > 1 ? rateList : undefined;
  const sloArg = str("slo");
  const slo = sloArg === undefined ? undefined : parseSlo(sloArg);
  if (slo && rateList) {
    throw new UsageError("--slo searches over rates itself: leave out --rate (or run them separately)");
  }
  const pipelining = integerOption(values, "pipelining", 1, 100, 1);
  if ((rateList || slo) && pipelining > 1) {
    throw new UsageError(
      "--pipelining cannot be combined with --rate or --slo (the fixed-rate generator sends one request per connection at a time)",
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
  const lowest = rateList ? Math.min(...rateList) : undefined;
  if (lowest !== undefined && connections.some((c) => c > lowest)) {
    // Not an error in principle, but connections beyond the rate never carry a request: almost surely a typo.
    throw new UsageError(
      `--rate ${lowest} is below --connections ${Math.max(...connections)}; use a rate of at least one request per connection per second`,
    );
  }
  return { rate, rates, slo, pipelining };
}

/** --pairing and --duet-cpus: fixed rates, capacity searches, profiles, limits, workers and servers elsewhere measure one server at a time. */
function pairingOf(
  values: Values,
  run: { rate: boolean; slo: boolean; profile: boolean; remote: boolean; cpus: boolean; workers: number },
) {
  const str = strOf(values);
  const pairingArg = str("pairing");
  if (pairingArg !== undefined && !(PAIRINGS as readonly string[]).includes(pairingArg)) {
    throw new UsageError(`--pairing must be one of ${PAIRINGS.join(", ")}, got "${pairingArg}"`);
  }
  const oneAtATime =
    str("rate") !== undefined
      ? "--rate"
      : run.slo
        ? "--slo"
        : run.profile
          ? "--profile"
          : run.remote
            ? "--target"
            : run.cpus
              ? "--cpus"
              : run.workers > 1
                ? "--workers"
                : undefined;
  if (pairingArg === "duet" && oneAtATime) {
    throw new UsageError(
      `--pairing duet measures two servers at once under its own quotas: it cannot be combined with ${oneAtATime} (use --pairing sequential)`,
    );
  }
  const pairing = (pairingArg as Pairing | undefined) ?? (oneAtATime ? "sequential" : DEFAULT_PAIRING);
  const duetCpus = numberOption(
    values,
    "duet-cpus",
    (n) => n >= 0.05 && n <= 1,
    "a number of cores from 0.05 to 1",
    DEFAULT_DUET_CPUS,
  );
  if (str("duet-cpus") !== undefined && pairing !== "duet")
    throw new UsageError("--duet-cpus applies to --pairing duet");
  return { pairing, pairingAsked: pairingArg !== undefined, duetCpus };
}

/**
 * `--restart`: a fresh process per cell applies to the repeated cells of a run that starts its own servers one at a
 * time; what cannot have it (servers elsewhere, duet's paired groups, rate lists and capacity searches that follow a
 * server across cells, a profile of one process) refuses it when asked and runs `run` by default. A smoke run checks
 * answers, not precision: it starts each server once unless asked.
 */
export function restartOf(
  raw: string | undefined,
  run: { smoke: boolean; duet: boolean; rates: boolean; slo: boolean; profile: boolean; remote: boolean },
): Restart {
  if (raw !== undefined && !(RESTARTS as readonly string[]).includes(raw)) {
    throw new UsageError(`--restart must be one of ${RESTARTS.join(", ")}, got "${raw}"`);
  }
  const without = run.remote
    ? "--target (the bench does not start those servers)"
    : run.duet
      ? "--pairing duet (each pair's servers keep their control groups)"
      : run.rates
        ? "a --rate list (each rate's cell follows the last on the same server)"
        : run.slo
          ? "--slo (its probes start from the throughput just measured on the same server)"
          : run.profile
            ? "--profile (one profile per server process)"
            : undefined;
  if (raw === "cell" && without) throw new UsageError(`--restart cell cannot be combined with ${without}`);
  if (raw !== undefined) return raw as Restart;
  return without || run.smoke ? "run" : DEFAULT_RESTART;
}

const RATE_RULE = "an integer from 1 to 1000000 (requests/s)";
const isRate = (n: number) => Number.isInteger(n) && n >= 1 && n <= 1_000_000;

/**
 * `--rate`: one rate (`500`), a list (`100,500,1000`) or a ramp (`10..1500x8`: eight evenly spaced rates from
 * 10 to 1500 inclusive, rounded to whole requests/s). Returns the rates in the order given (a ramp ascending).
 */
export function parseRates(raw: string): number[] {
  const text = raw.trim();
  if (text.includes("..") || /x/i.test(text)) {
    const ramp = /^(\d+)\.\.(\d+)x(\d+)$/i.exec(text);
    if (!ramp) throw new UsageError(`--rate ramp is FROM..TOxSTEPS, e.g. 10..1500x8; got "${raw}"`);
    const [from, to, steps] = [Number(ramp[1]), Number(ramp[2]), Number(ramp[3])];
    if (!isRate(from) || !isRate(to)) throw new UsageError(`--rate ramp ends must each be ${RATE_RULE}, got "${raw}"`);
    if (to <= from) throw new UsageError(`--rate ramp must go up: ${from}..${to} ends below where it starts`);
    if (!Number.isInteger(steps) || steps < 2 || steps > 50) {
      throw new UsageError(`--rate ramp needs from 2 to 50 steps (the x count), got "${raw}"`);
    }
    const rates = Array.from({ length: steps }, (_, i) => Math.round(from + ((to - from) * i) / (steps - 1)));
    if (new Set(rates).size !== rates.length) {
      throw new UsageError(`--rate ${raw}: ${steps} steps from ${from} to ${to} repeat a rate; use fewer steps`);
    }
    return rates;
  }
  const rates = list("rate", text).map((item) => number("rate", item, isRate, RATE_RULE));
  if (new Set(rates).size !== rates.length) throw new UsageError(`--rate names a rate twice: "${raw}"`);
  if (rates.length > 50) throw new UsageError(`--rate takes at most 50 rates, got ${rates.length}`);
  return rates;
}

const SLO_PERCENTILES = [50, 90, 95, 99, 99.9] as const;
const UNIT_MS: Record<string, number> = { us: 0.001, µs: 0.001, ms: 1, s: 1000 };

/** `--slo p99<50ms`: a latency percentile and the bound it must stay under. */
export function parseSlo(raw: string): { percentile: number; boundMs: number } {
  const match = /^p(\d+(?:\.\d+)?)\s*<\s*(\d+(?:\.\d+)?)\s*(us|µs|ms|s)$/i.exec(raw.trim());
  const rule = `--slo is pP<BOUND with P one of ${SLO_PERCENTILES.join(", ")} and a bound in us, ms or s (e.g. p99<50ms); got "${raw}"`;
  if (!match) throw new UsageError(rule);
  const percentile = Number(match[1]);
  const boundMs = Number(match[2]) * (UNIT_MS[(match[3] as string).toLowerCase()] ?? Number.NaN);
  if (!(SLO_PERCENTILES as readonly number[]).includes(percentile)) throw new UsageError(rule);
  if (!(boundMs > 0) || boundMs > 600_000)
    throw new UsageError(`--slo bound must be above 0 and at most 600 s; got "${raw}"`);
  return { percentile, boundMs };
}

const MEMORY_UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** `--memory 256M`: bytes (suffix K, M or G, powers of 1024; an optional trailing B or iB), at least 16 MiB. */
export function parseMemory(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(raw.trim());
  if (!match) throw new UsageError(`--memory is a size such as 256M or 1G, got "${raw}"`);
  const bytes = Math.floor(Number(match[1]) * (MEMORY_UNITS[(match[2] as string).toLowerCase()] ?? Number.NaN));
  if (!(bytes >= 16 * 1024 ** 2))
    throw new UsageError(`--memory must be at least 16M (a server needs more), got "${raw}"`);
  return bytes;
}
