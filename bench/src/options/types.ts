// What `pnpm bench` runs with: every option parsed and checked (options/parse.ts), with its defaults filled in.
import type { Implementation } from "@api-ref/harness";
import type { Pairing } from "../results/schema.ts";
import type { ScenarioName } from "../scenarios/catalog.ts";

export const CONNECTION_CHOICES = [25, 100, 200, 300] as const;

export const RESTARTS = ["cell", "run"] as const;
export type Restart = (typeof RESTARTS)[number];

export const PAIRINGS = ["sequential", "duet"] as const;

/** A mistake on the command line: its message is fit for a user (exit code 2, the usage after it). */
export class UsageError extends Error {}

/** --count instructions: per cell, requests of warm-up (uninstrumented), then rounds of `requests`, each counted. */
export interface InstructionPlan {
  warmupRequests: number;
  requests: number;
  rounds: number;
}

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
  /** Times a disturbed cell is run again (runner/repeats.ts); 0: every cell kept as measured, marked. */
  reruns: number;
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
  /** Seed data scales, ascending, each measured on its own seeded data; more than one makes a growth run. */
  scales: number[];
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
  /** How a ratio's two sides are measured: one after the other, or at once under equal CPU quotas (duet). */
  pairing: Pairing;
  /** --pairing was given (a machine that cannot do it then refuses; the default falls back to sequential). */
  pairingAsked: boolean;
  /** duet: the CPU quota of each side's control group, in cores. */
  duetCpus: number;
  /** Seconds each target is loaded, not measured, before a scenario's first round (runner/settle.ts). */
  settleS: number;
  /** --disturb N: N synthetic CPU hogs during the run (the precision study's disturbance); undefined: none. */
  disturb: number | undefined;
  /**
   * --handicap: servers that run with V8's optimising compilers off (measured implementations by name, `twin` for every
   * A/A twin): a copy made slower on purpose, to show that the A/A check and --compare catch it.
   */
  handicap: string[];
  /**
   * When servers are started: once for the whole run (`run`), or anew before every measured cell (`cell`), so that
   * each repeat samples a new process and the intervals carry the process-to-process variation (runner/restart.ts).
   */
  restart: Restart;
  /** --count instructions: instructions per request under callgrind instead of requests/s (undefined: wall clock). */
  instructions: InstructionPlan | undefined;
}
