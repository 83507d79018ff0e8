// `pnpm bench` options: parsed and checked completely before anything starts, so that a typo costs a message
// and exit code 2, never a half-run benchmark. What each option is and its defaults: options/table.ts.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Implementation, implementations } from "@api-ref/harness";
import { BASELINES } from "../baselines.ts";
import { SCENARIO_NAMES, type ScenarioName, scenarios } from "../scenarios/catalog.ts";
import { implementationNamed } from "../sql-mode.ts";
import { instructionPlanOf } from "./instructions.ts";
import { pairingOf, restartOf } from "./pairing.ts";
import { CORE_IMPLEMENTATIONS, DECIDING_SCENARIOS, defaultOf, OPTIONS } from "./table.ts";
import { type BenchOptions, CONNECTION_CHOICES, UsageError } from "./types.ts";
import {
  integerOption,
  list,
  number,
  numberOption,
  parseMemory,
  parseRates,
  parseScales,
  parseSlo,
  strOf,
  type Values,
} from "./values.ts";

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
  checkGrowth(servers.scales, {
    target: remote.targets.length > 0,
    profile: servers.profile,
    rates: load.rates !== undefined,
    slo: load.slo !== undefined,
  });
  const handicap = handicapOf(values, remote.impls, remote.targets.length > 0);
  if (remote.impls.length === 0 && remote.targets.length === 0)
    throw new UsageError("no implementations are registered (packages/harness/src/implementations.ts)");
  const instructions = instructionPlanOf(strOf(values)("count"), strOf(values)("count-plan"), {
    smoke,
    remote: remote.targets.length > 0,
    duet: pairing.pairing === "duet",
    rates: load.rate !== undefined || load.rates !== undefined,
    slo: load.slo !== undefined,
    profile: servers.profile,
    workers: servers.workers,
    restart: strOf(values)("restart"),
  });
  // Counted cells: each a fresh process (its rounds are the precision within it), as many processes as asked.
  // At 25 connections by default (the fewest offered): a count does not need the load a throughput does.
  const counted = instructions
    ? {
        restart: "cell" as const,
        maxRepeats: lengths.repeats,
        ...(strOf(values)("connections") === undefined ? { connections: [25] } : {}),
      }
    : {};
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
    handicap,
    restart,
    instructions,
    ...counted,
  };
}

/**
 * A growth run (several --scale values) seeds and restarts the servers at each scale, and reports each scenario's
 * throughput against data size: servers elsewhere hold their own data, and profiles, rate curves and capacity
 * searches have no growth view (run them at one scale).
 */
function checkGrowth(scales: number[], asked: { target: boolean; profile: boolean; rates: boolean; slo: boolean }) {
  if (scales.length < 2) return;
  const clash = [
    asked.target ? "--target (its servers hold their own data)" : "",
    asked.profile ? "--profile" : "",
    asked.rates ? "a --rate list or ramp" : "",
    asked.slo ? "--slo" : "",
  ].filter(Boolean);
  if (clash.length > 0) {
    throw new UsageError(`--scale with several values measures growth at max throughput: not with ${clash.join(", ")}`);
  }
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
        `unknown implementation ${unknown.join(", ")}; known: ${implementations.map((i) => i.name).join(", ")} ` +
          "(NAME[sql] for a Node implementation in DATA_ACCESS=sql mode)",
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

  let connections = defaultOf<number[]>("connections", smoke);
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

/** --duration, --settle, --warmup, --budget, --repeats, --max-repeats, --reruns, --precision: how long and how often. */
function cellLengths(values: Values, smoke: boolean, all: boolean) {
  const seconds = (name: string, min: number, fallback: number) =>
    numberOption(values, name, (n) => n >= min && n <= 600, `a number of seconds from ${min} to 600`, fallback);
  const durationS = seconds("duration", 0.25, defaultOf<number>("duration", smoke));
  const settleS = seconds("settle", 0, defaultOf<number>("settle", smoke));
  const warmupS = seconds("warmup", 0, defaultOf<number>("warmup", smoke));
  if (strOf(values)("budget") !== undefined && smoke) throw new UsageError("--budget does not apply to --smoke");
  const budgetMinutes = numberOption(
    values,
    "budget",
    (n) => n >= 1 && n <= 1440,
    "a number of minutes from 1 to 1440",
    all ? undefined : defaultOf<number | undefined>("budget", smoke),
  );
  const repeats = integerOption(values, "repeats", 1, 50, defaultOf<number>("repeats", smoke));
  const maxRepeats = integerOption(
    values,
    "max-repeats",
    1,
    50,
    smoke ? repeats : Math.max(repeats, defaultOf<number>("max-repeats", false)),
  );
  if (maxRepeats < repeats) throw new UsageError(`--max-repeats ${maxRepeats} is below --repeats ${repeats}`);
  const reruns = integerOption(values, "reruns", 0, 10, defaultOf<number>("reruns", smoke));
  return { durationS, settleS, warmupS, budgetMinutes, repeats, maxRepeats, reruns, precision: precisionOf(values) };
}

/** --precision: a half-width in % (`5%`) or as a fraction (`0.05`); a bare number of 1 or more is read as %. */
function precisionOf(values: Values): number {
  const raw = strOf(values)("precision");
  if (raw === undefined) return defaultOf<number>("precision", false);
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
  const workers = integerOption(values, "workers", 1, 64, defaultOf<number>("workers", false));
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
  const scaleArg = str("scale");
  const scales = scaleArg === undefined ? defaultOf<number[]>("scale", false) : parseScales(scaleArg);
  const poolSize = integerOption(values, "pool-size", 1, 200, defaultOf<number>("pool-size", false));
  if (poolSize % workers !== 0) {
    throw new UsageError(
      `--pool-size ${poolSize} cannot be divided among ${workers} workers: every server must hold the same number ` +
        `of database connections; use a multiple of ${workers}`,
    );
  }
  const verifySample = integerOption(values, "verify-sample", 1, 1000, defaultOf<number>("verify-sample", smoke));
  return { workers, profile, cpus, memoryBytes, scales, poolSize, verifySample };
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
        `--target name "${name}": a registered name (${known.join(", ")}) or a name of your own for another server ` +
          "(lower-case letters, digits, - and _)",
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
  const pipelining = integerOption(values, "pipelining", 1, 100, defaultOf<number>("pipelining", false));
  if ((rateList || slo) && pipelining > 1) {
    throw new UsageError(
      "--pipelining cannot be combined with --rate or --slo (the fixed-rate generator sends one request per connection at a time)",
    );
  }
  if (pipelining > 1) {
    const sequential = scenarioNames.filter((n) => scenarios[n].sequential);
    if (sequential.length > 0) {
      throw new UsageError(
        `--pipelining ${pipelining} cannot apply to ${sequential.join(", ")} (each request depends on an earlier ` +
          "response); choose other scenarios with --scenario",
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

/** --handicap: measured Node implementations by name, or `twin` (every A/A twin); the bench must start them. */
function handicapOf(values: Values, impls: Implementation[], remote: boolean): string[] {
  const raw = strOf(values)("handicap");
  if (raw === undefined) return [];
  const names = list("handicap", raw);
  if (remote) throw new UsageError("--handicap starts servers with V8 flags: not with --target");
  for (const name of names) {
    if (name === "twin") continue;
    const impl = impls.find((i) => i.name === name);
    if (!impl) throw new UsageError(`--handicap ${name}: not an implementation this run measures (or twin)`);
    if (impl.runtime !== "node") throw new UsageError(`--handicap ${name}: its flags are V8's, for Node servers only`);
  }
  return names;
}
