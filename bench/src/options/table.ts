// Every `pnpm bench` option in one table: how parseArgs reads it, its defaults (and a smoke run's), its lines of the
// usage, and what results.json's `options` records of it. Adding an option: a row here, and the code that uses it.
import { implementations, optionsConfig } from "@api-ref/harness";
import type { Pairing } from "../results/schema.ts";
import { SCENARIO_NAMES } from "../scenarios/catalog.ts";
import { DEFAULT_INSTRUCTION_PLAN, planText, SMOKE_INSTRUCTION_PLAN } from "./instructions.ts";
import { type BenchOptions, CONNECTION_CHOICES, type Restart } from "./types.ts";

/** The implementations a default run measures: the design's core set (--all or --impl for the others). */
export const CORE_IMPLEMENTATIONS = [
  "express",
  "fastify-zod",
  "fastify-json-schema",
  "nestjs-express",
  "nestjs-fastify",
] as const;
/** A default run's scenarios, one per kind of cost (bench/README.md, "The default run", says which and why). */
export const DECIDING_SCENARIOS = ["hello", "echo", "user-by-id", "orders-list", "order-create"] as const;

// The defaults the precision study chose are explained in bench/results/precision-study/README.md.
/** Sequential: on a quiet machine duet was no more precise, and its framework ratios disagreed beyond their intervals. */
export const DEFAULT_PAIRING: Pairing = "sequential";
/** duet: two sides at 0.4 of a core leave 1.2 of 2 cores to their load generators and PostgreSQL (the study). */
export const DEFAULT_DUET_CPUS = 0.4;
/** Seconds of load that bring a server's JIT and heap to their working state (the precision study). */
export const DEFAULT_SETTLE_S = 5;
/** A fresh process per cell: the study's A/A line at ±3.0% against ±8.9–10.3% with one process per run. */
export const DEFAULT_RESTART: Restart = "cell";
export const DEFAULT_BUDGET_MINUTES = 20;
export const DEFAULT_MAX_REPEATS = 10;
export const DEFAULT_PRECISION = 0.05;
/** A disturbed cell's runs at most: two more, then it is kept and marked (bench/docs/method.md, "A quiet machine"). */
export const DEFAULT_RERUNS = 2;

interface Row {
  /** value: `--name VALUE`; flag: `--name`; elsewhere: read before parseArgs (--compare, --preset, --claims). */
  kind: "value" | "flag" | "elsewhere";
  /** The argument as the usage shows it (`S`, `N[,N...]`). */
  arg?: string;
  /** The usage's lines for it; `also`: more forms of the same option, each with its lines. */
  help: readonly string[];
  also?: ReadonlyArray<{ arg: string; help: readonly string[] }>;
  /** The value when the option is not given, and in a smoke run where that differs. */
  default?: unknown;
  smoke?: unknown;
  /** What results.json's `options` records of it (runner/record.ts puts the keys in results.json's order). */
  record?: (o: BenchOptions) => Record<string, unknown>;
}

const implNames = () => implementations.map((i) => i.name).join(", ");

/** The rows, in the usage's order. */
export const TABLE = {
  impl: {
    kind: "value",
    arg: "NAME[,NAME...]",
    help: [
      `implementations to measure (default: the core set ${CORE_IMPLEMENTATIONS.join(", ")}; ` +
        `registered: ${implNames()}; NAME[sql]: a Node implementation with DATA_ACCESS=sql)`,
    ],
    record: (o) => ({ impls: o.impls.map((i) => i.name) }),
  },
  scenario: {
    kind: "value",
    arg: "NAME[,NAME...]",
    help: [`scenarios (default: ${DECIDING_SCENARIOS.join(", ")}): ${SCENARIO_NAMES.join(", ")}`],
    record: (o) => ({ scenarios: o.scenarios }),
  },
  all: {
    kind: "flag",
    help: ["every registered implementation and every scenario (prints how long it will take)"],
    record: (o) => ({ all: o.all }),
  },
  connections: {
    kind: "value",
    arg: "N[,N...]",
    default: [100],
    // Smoke runs check that everything answers correctly under load, not how fast: fewer connections queue less.
    smoke: [25],
    help: [`concurrent connections, from ${CONNECTION_CHOICES.join("/")} (default 100; smoke 25)`],
    record: (o) => ({ connections: o.connections }),
  },
  duration: {
    kind: "value",
    arg: "S",
    // 3 s: the precision study's cells; with a fresh process per cell, more shorter cells sample more processes.
    default: 3,
    smoke: 0.25,
    help: ["measured seconds per cell (default 3; smoke 0.25; the auth routes at least 3, in smoke 1)"],
    record: (o) => ({ durationS: o.durationS }),
  },
  warmup: {
    kind: "value",
    arg: "S",
    default: 2,
    smoke: 0,
    help: ["warm-up seconds before each measured run (default 2; smoke 0)"],
    record: (o) => ({ warmupS: o.warmupS }),
  },
  settle: {
    kind: "value",
    arg: "S",
    default: DEFAULT_SETTLE_S,
    smoke: 0,
    help: [
      "seconds each server is loaded before it is first measured: before a scenario's first",
      `round, or with --restart cell before every cell (default ${DEFAULT_SETTLE_S}; smoke 0)`,
    ],
    record: (o) => ({ settleS: o.settleS }),
  },
  restart: {
    kind: "value",
    arg: "WHEN",
    default: DEFAULT_RESTART,
    smoke: "run",
    help: [
      "cell: a fresh server process for every measured cell, so that the intervals include",
      "how much one process differs from the next; run: each server started once for the",
      `whole run (default ${DEFAULT_RESTART}; run with --smoke, --pairing duet, --rate lists, --slo, --profile, --target)`,
    ],
    record: (o) => ({ restart: o.restart }),
  },
  repeats: {
    kind: "value",
    arg: "N",
    default: 3,
    smoke: 2,
    help: ["runs of each cell at least, implementations interleaved (default 3; smoke 2)"],
    record: (o) => ({ repeats: o.repeats }),
  },
  "max-repeats": {
    kind: "value",
    arg: "N",
    default: DEFAULT_MAX_REPEATS,
    help: [
      "runs of each cell at most, while a headline ratio is less precise than --precision " +
        `(default ${DEFAULT_MAX_REPEATS}; smoke 2)`,
    ],
    record: (o) => ({ maxRepeats: o.maxRepeats }),
  },
  reruns: {
    kind: "value",
    arg: "N",
    default: DEFAULT_RERUNS,
    smoke: 0,
    help: [
      "times a disturbed cell (other work took a quarter of a core or more) is run again;",
      `0 keeps every cell as measured, marked (default ${DEFAULT_RERUNS}; smoke 0)`,
    ],
    record: (o) => ({ reruns: o.reruns }),
  },
  precision: {
    kind: "value",
    arg: "P",
    default: DEFAULT_PRECISION,
    help: ["wanted half-width of each headline ratio's 95% interval, in % or as a fraction (default 5%)"],
    record: (o) => ({
      precision: o.precision,
      confidenceInterval: "95%, Student's t on the logarithms of the ratios paired repeat by repeat",
    }),
  },
  budget: {
    kind: "value",
    arg: "MIN",
    default: DEFAULT_BUDGET_MINUTES,
    smoke: undefined,
    help: [
      `extra repeats only while the run stays within MIN minutes (default ${DEFAULT_BUDGET_MINUTES}; none with --all)`,
    ],
    record: (o) => ({ budgetMinutes: o.budgetMinutes ?? null }),
  },
  workers: {
    kind: "value",
    arg: "N",
    default: 1,
    help: ["server processes per implementation and baseline (node:cluster, uvicorn workers; default 1)"],
    record: (o) => ({ workers: o.workers }),
  },
  target: {
    kind: "value",
    arg: "NAME=URL[,...]",
    help: [
      "measure servers already running elsewhere (registered implementation or baseline",
      "names, or a name of your own for a server outside the repository); database",
      "scenarios need DATABASE_URL (their database) and JWT_SECRET (their secret)",
    ],
    record: (o) => ({ targets: o.targets }),
  },
  rate: {
    kind: "value",
    arg: "R",
    help: ["fixed rate in requests/s: latency without coordinated omission, instead of max throughput"],
    also: [
      { arg: "R,R,...", help: ["latency against offered load: one fixed-rate run per rate, p50/p99 per rate charted"] },
      {
        arg: "FROM..TOxN",
        help: ["the same over a ramp: N evenly spaced rates from FROM to TO inclusive (10..1500x8)"],
      },
    ],
    record: (o) => ({ rate: o.rate ?? null, rates: o.rates ?? null }),
  },
  slo: {
    kind: "value",
    arg: "pP<BOUND",
    help: [
      "capacity at a latency bound (p50/p90/p95/p99/p99.9, bound in us/ms/s, e.g. p99<50ms):",
      "the highest fixed rate keeping that percentile under the bound with no errors,",
      "found by short probes (doubling, then bisection to 10%), confirmed by a full run",
    ],
    record: (o) => ({ slo: o.slo ?? null }),
  },
  cpus: {
    kind: "value",
    arg: "C",
    help: ["CPU quota per server, all its workers together, in cores (e.g. 0.5; cgroups, root)"],
    record: (o) => ({ cpus: o.cpus ?? null }),
  },
  memory: {
    kind: "value",
    arg: "SIZE",
    help: ["memory limit per server, all its workers together (e.g. 256M, 1G; cgroups, root)"],
    record: (o) => ({ memoryBytes: o.memoryBytes ?? null }),
  },
  pipelining: {
    kind: "value",
    arg: "N",
    default: 1,
    help: [
      "requests in flight per connection (default 1; not with --rate, orders-cursor-walk, crud-mix or auth-register)",
    ],
    record: (o) => ({ pipelining: o.pipelining }),
  },
  scale: {
    kind: "value",
    arg: "X[,X...]",
    default: [1],
    help: [
      "seed data scale (default 1 = 1,000 users, 5,000 products, 10,000 orders); a list (1,10,100)",
      "measures every scenario at each, on its own seeded data, and reports its growth",
    ],
    // A one-scale run records the number it always has; a growth run its scales too (the smallest is `scale`).
    record: (o) => ({ scale: o.scales[0], ...(o.scales.length > 1 ? { scales: o.scales } : {}) }),
  },
  "pool-size": {
    kind: "value",
    arg: "N",
    default: 10,
    help: ["database connections per implementation and baseline, divided among its workers (default 10)"],
    record: (o) => ({ poolSize: o.poolSize, poolPerWorker: o.poolSize / o.workers }),
  },
  "verify-sample": {
    kind: "value",
    arg: "N",
    default: 24,
    smoke: 12,
    help: ["requests checked against the contract per scenario and server (default 24; smoke 12)"],
    record: (o) => ({ verifySample: o.verifySample }),
  },
  smoke: {
    kind: "flag",
    help: ["every scenario and implementation, a quarter second each, two repeats, no warm-up (for CI)"],
    record: (o) => ({ smoke: o.smoke }),
  },
  "no-pin": {
    kind: "flag",
    help: ["do not pin the server and the load generator to separate cores"],
    record: (o) => ({ pin: o.pin }),
  },
  profile: {
    kind: "flag",
    help: [
      "CPU profile of each server over every measured cell: flame graphs and the top functions",
      "by layer in the report (Node: the inspector's sampler; FastAPI: py-spy, if installed)",
    ],
  },
  out: {
    kind: "value",
    arg: "DIR",
    help: ["results directory, relative to where pnpm was run (default bench/results/<timestamp>)"],
  },
  pairing: {
    kind: "value",
    arg: "MODE",
    default: DEFAULT_PAIRING,
    help: [
      "sequential (default): one target at a time, pinned; duet: each target at the same time",
      "as its baseline, each in its own control group with an equal CPU quota, ratios of",
      "requests per CPU-second (bench/results/precision-study says when to use which)",
    ],
    record: (o) => ({ pairing: o.pairing }),
  },
  "duet-cpus": {
    kind: "value",
    arg: "C",
    default: DEFAULT_DUET_CPUS,
    help: [`duet: the CPU quota of each side, in cores (default ${DEFAULT_DUET_CPUS})`],
    record: (o) => ({ duetCpus: o.pairing === "duet" ? o.duetCpus : null }),
  },
  disturb: {
    kind: "value",
    arg: "N",
    help: ["run N bursty CPU hogs during the run (a reproducible busy machine, for precision studies)"],
    record: (o) => ({ disturb: o.disturb ?? null }),
  },
  count: {
    kind: "value",
    arg: "WHAT",
    help: [
      "instructions: every cell a fresh server under valgrind's callgrind, warmed up, then",
      "its instructions per request counted (user space only: no kernel, no PostgreSQL; no",
      "other tenant moves it); ratios, intervals and A/A as for requests/s (needs valgrind)",
    ],
    record: (o) => ({ instructions: o.instructions ?? null }),
  },
  "count-plan": {
    kind: "value",
    arg: "W+RxN",
    help: [
      "--count instructions: W requests of warm-up (not counted), then R rounds of N counted",
      `requests each (default ${planText(DEFAULT_INSTRUCTION_PLAN)}; smoke ${planText(SMOKE_INSTRUCTION_PLAN)};`,
      "recorded with --count)",
    ],
  },
  handicap: {
    kind: "value",
    arg: "NAME[,NAME...]",
    help: [
      "start these Node servers with V8's optimising compilers off (measured implementations, or",
      "twin for the A/A twins): the A/A check must then fail, --compare must say slower",
    ],
    record: (o) => ({ handicap: o.handicap }),
  },
  compare: {
    kind: "elsewhere",
    arg: "OLD [NEW]",
    help: ["compare two runs' ratios: faster / slower / can't tell, by both runs' A/A lines"],
  },
  preset: {
    kind: "elsewhere",
    arg: "ID",
    help: [
      "a published claim's setup, scaled to this machine, ending with \"claimed vs measured",
      'here" (bench/claims/published-claims.json; explicit options win)',
    ],
  },
  claims: {
    kind: "elsewhere",
    help: ["every preset in one run (~23 min) and one page answering all the articles"],
  },
} as const satisfies Record<string, Row>;

export type OptionName = keyof typeof TABLE;
const ROWS = Object.entries(TABLE) as Array<[OptionName, Row]>;

/** parseArgs's options: the table's values and flags (and --help, which optionsConfig adds). */
export const OPTIONS = optionsConfig(
  ROWS.filter(([, row]) => row.kind === "value").map(([name]) => name),
  ROWS.filter(([, row]) => row.kind === "flag").map(([name]) => name),
);

/** An option's default: a smoke run's where the table gives one. */
export function defaultOf<T>(name: OptionName, smoke: boolean): T {
  const row: Row = TABLE[name];
  return (smoke && "smoke" in row ? row.smoke : row.default) as T;
}

/** What results.json's `options` records of every option, in the table's order. */
export function recordedOptions(options: BenchOptions): Record<string, unknown> {
  return Object.assign({}, ...ROWS.map(([, row]) => row.record?.(options) ?? {}));
}

const COLUMN = 27;
const usageLines = (label: string, help: readonly string[]) =>
  help.map((line, i) => `  ${(i === 0 ? label : "").padEnd(COLUMN)}${line}`);

export const USAGE = [
  "usage: pnpm bench [options]",
  "",
  ...ROWS.flatMap(([name, row]) => [
    ...usageLines(row.arg ? `--${name} ${row.arg}` : `--${name}`, row.help),
    ...(row.also ?? []).flatMap((form) => usageLines(`--${name} ${form.arg}`, form.help)),
  ]),
  ...usageLines("-h, --help", ["this text"]),
].join("\n");
