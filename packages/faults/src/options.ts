// What a run does: which implementations and faults, and how hard each fault pushes. Two modes: `short` fits
// CI's budget (about 5 minutes for nine implementations on two cores), `long` is the one to quote figures from.
// The CLI resolves the options into FaultSettings and hands them to the suite as JSON in FAULTS_SETTINGS.
import { parseArgs } from "node:util";
import { optionsConfig, selectImplementations } from "@api-ref/harness";

export const FAULTS = ["shutdown", "db-outage", "hostile-input", "schema-fuzz", "soak"] as const;
export type FaultName = (typeof FAULTS)[number];
export type Mode = "short" | "long";

export interface FaultSettings {
  mode: Mode;
  /** Implementation names, from the registry (all of them unless --impl). */
  impls: string[];
  faults: FaultName[];
  /** Seed of every generated request (fast-check, Schemathesis, the load mixes). */
  seed: number;
  shutdown: {
    /** Keep-alive connections sending slow requests when SIGTERM arrives. */
    connections: number;
    /** Load before the signal. */
    loadMs: number;
    /** SHUTDOWN_GRACE_MS given to the app: it must exit 0 within it. */
    graceMs: number;
  };
  outage: {
    connections: number;
    /** Load with the database up, before it is stopped. */
    upMs: number;
    /** How long the database stays down. */
    downMs: number;
    /** Load after every route works again, before the invariants are checked. */
    afterMs: number;
    /** Every answer while the database is down must arrive within this (a bounded wait, not a hang). */
    answerBoundMs: number;
    /** Every route must work again within this of the database's return. */
    recoveryBoundMs: number;
  };
  hostile: { requests: number; concurrency: number };
  schemathesis: {
    /** Schemathesis --max-examples (per operation, fuzzing phase). */
    maxExamples: number;
    phases: string[];
    /** Schemathesis --max-time for the whole run, seconds (0: no budget). */
    maxTimeS: number;
  };
  soak: { seconds: number; connections: number; sampleMs: number };
}

export function defaultSettings(mode: Mode): FaultSettings {
  const short = mode === "short";
  return {
    mode,
    impls: selectImplementations(undefined).map((i) => i.name),
    faults: [...FAULTS],
    seed: 20261122,
    shutdown: { connections: short ? 16 : 32, loadMs: short ? 500 : 4_000, graceMs: 10_000 },
    outage: {
      connections: short ? 6 : 12,
      upMs: short ? 500 : 3_000,
      downMs: short ? 2_000 : 10_000,
      afterMs: short ? 500 : 3_000,
      answerBoundMs: 5_000,
      recoveryBoundMs: 5_000,
    },
    hostile: { requests: short ? 200 : 3_000, concurrency: short ? 4 : 8 },
    schemathesis: {
      maxExamples: short ? 2 : 20,
      // Short: a few generated cases per operation and the stateful phase. Long: everything, the deterministic
      // coverage phase (boundary and negative values) included.
      phases: short ? ["fuzzing", "stateful"] : ["examples", "coverage", "fuzzing", "stateful"],
      maxTimeS: 0,
    },
    soak: { seconds: short ? 5 : 120, connections: short ? 8 : 16, sampleMs: short ? 400 : 2_000 },
  };
}

export const usage = `usage: pnpm test:faults [--short | --long] [--impl NAME[,NAME...]] [--fault NAME[,NAME...]]
                        [--seed N] [--soak-seconds N] [--hostile-requests N] [--fuzz-examples N]
                        [--outage-seconds N] [vitest options, e.g. --reporter=json --outputFile.json=PATH]
  --short             the CI mode, about 5 minutes for nine implementations (default when CI is set)
  --long              the longer mode (default otherwise): the figures to quote
  --impl              these implementations only (default: every registered one)
  --fault             these faults only: ${FAULTS.join(", ")}
  --seed              seed of every generated request (default 20261122)
  --soak-seconds      soak length per implementation
  --hostile-requests  generated requests per implementation
  --fuzz-examples     Schemathesis --max-examples
  --outage-seconds    how long the database stays down
Vitest's reporting and selection options (--reporter, --outputFile, -t/--testNamePattern, --bail, --silent,
--color/--no-color, --hideSkippedTests) are passed to it; any other option is an error.`;

/** The vitest options the suite passes through; anything else is a typo to report, not vitest's stack trace. */
const VITEST_OPTIONS =
  /^(--reporter|--outputFile(\.[\w-]+)?|-t|--testNamePattern|--bail|--silent|--color|--no-color|--hideSkippedTests)$/;

const positiveInt = (name: string, raw: string) => {
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return Number(raw);
};

/** The CLI's own options (those that take a value, then the flags); vitest's are passed through. */
const OPTIONS = optionsConfig(
  ["impl", "fault", "seed", "soak-seconds", "hostile-requests", "fuzz-examples", "outage-seconds"],
  ["short", "long"],
);

/** Parses the CLI's arguments: the settings, and what is left for vitest. Throws a message fit for a user. */
export function parseCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): { settings: FaultSettings; vitestArgs: string[]; help: boolean } {
  const { values, tokens } = parseArgs({
    args: argv,
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const known = new Set([...Object.keys(OPTIONS), "h"]);
  // Everything parseArgs did not recognise goes to vitest as it was written (`--reporter json` arrives as an
  // unknown flag followed by a positional, in order).
  const vitestArgs: string[] = [];
  for (const token of tokens ?? []) {
    if (token.kind === "positional") vitestArgs.push(token.value);
    else if (token.kind === "option" && !known.has(token.name)) {
      if (!VITEST_OPTIONS.test(token.rawName)) throw new Error(`unknown option ${token.rawName}`);
      if (token.value === undefined) vitestArgs.push(token.rawName);
      else if (token.inlineValue) vitestArgs.push(`${token.rawName}=${token.value}`);
      else vitestArgs.push(token.rawName, token.value);
    }
  }
  // Not strict (vitest's options pass through), so parseArgs itself lets `--seed` without a value or `--short=3` by.
  for (const [name, { type }] of Object.entries(OPTIONS)) {
    if (values[name] === undefined) continue;
    if (type === "string" && typeof values[name] !== "string") throw new Error(`--${name} needs a value`);
    if (type === "boolean" && typeof values[name] !== "boolean") throw new Error(`--${name} takes no value`);
  }
  if (values.short && values.long) throw new Error("--short and --long cannot be combined");
  const ci = Boolean(env.CI) && env.CI !== "false" && env.CI !== "0";
  const mode: Mode = values.short ? "short" : values.long ? "long" : ci ? "short" : "long";
  const settings = defaultSettings(mode);
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const impl = str(values.impl);
  // A row whose runtime has no binary here (Bun, Deno) is skipped, one line each.
  settings.impls = selectImplementations(impl, (skipped, reason) =>
    process.stderr.write(`faults: skipping ${skipped.name}: ${reason}\n`),
  ).map((i) => i.name);
  const fault = str(values.fault);
  if (fault !== undefined) {
    const wanted = fault.split(",").map((f) => f.trim());
    const unknown = wanted.filter((f) => !(FAULTS as readonly string[]).includes(f));
    if (unknown.length > 0 || wanted.length === 0) {
      throw new Error(`unknown fault ${unknown.join(", ") || "(none given)"}; known: ${FAULTS.join(", ")}`);
    }
    settings.faults = FAULTS.filter((f) => wanted.includes(f));
  }
  const seed = str(values.seed);
  if (seed !== undefined) settings.seed = positiveInt("seed", seed);
  const soak = str(values["soak-seconds"]);
  if (soak !== undefined) settings.soak.seconds = positiveInt("soak-seconds", soak);
  const hostile = str(values["hostile-requests"]);
  if (hostile !== undefined) settings.hostile.requests = positiveInt("hostile-requests", hostile);
  const fuzz = str(values["fuzz-examples"]);
  if (fuzz !== undefined) settings.schemathesis.maxExamples = positiveInt("fuzz-examples", fuzz);
  const outage = str(values["outage-seconds"]);
  if (outage !== undefined) settings.outage.downMs = positiveInt("outage-seconds", outage) * 1000;
  return { settings, vitestArgs, help: values.help === true };
}

/** The settings the CLI handed over, or the defaults for the environment when the suite runs on its own. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): FaultSettings {
  if (env.FAULTS_SETTINGS) return JSON.parse(env.FAULTS_SETTINGS) as FaultSettings;
  return parseCli([], env).settings;
}
