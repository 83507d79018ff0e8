// What running one scenario needs: the live servers, the run's options and shared state (the load generator,
// the progress line and its counter of cells).
import type { LimitGroup } from "../limits.ts";
import type { LoadGenerator } from "../load/generator.ts";
import type { InstructionPlan } from "../options/types.ts";
import type { ProfileKind, Profiler } from "../profile/recorder.ts";
import type { Progress } from "../progress.ts";
import type { Pools, ScenarioName } from "../scenarios/catalog.ts";

export interface RunIo {
  progress: Progress;
  log(message: string): void;
}

export interface LiveTarget {
  name: string;
  url: string;
  /** The server's process when the bench started it: its tree is sampled for CPU and memory. None for --target. */
  process?: { pid?: number; exitCode: number | null; signalCode: NodeJS.Signals | null };
  /** Its database, restocked before write scenarios (none for servers without one). */
  databaseUrl?: string;
  /** --memory: OOM kills in the server's group so far, and its limit as written in messages. */
  oomKills?: () => number;
  memoryLimit?: string;
  /** --profile: how the server is sampled. */
  profile?: ProfileKind;
  /** duet: the server's control group (its quota and CPU accounting). */
  group?: LimitGroup;
  /** duet: the target this one is measured beside (its data-access baseline, else the limit); none for the limit. */
  partner?: string;
}

/** duet: the two load generators (one per side) and how to find the PostgreSQL backends serving a database. */
export interface DuetContext {
  loadGenerators: readonly [LoadGenerator, LoadGenerator];
  /** Each side on a core of its own (not with --no-pin). */
  pin: boolean;
  /** The pids of the backends connected to the database at this URL (none when PostgreSQL is not local). */
  backends?(databaseUrl: string): Promise<number[]>;
}

/**
 * --restart cell: `fresh` stops the target's server if it runs and starts a new one on the same database, updating the
 * target's url and process (rejects when the new one does not start); `park` stops it until its next cell.
 */
export interface Restarter {
  /** Starts the target anew; resolves to the new process's start-up time in milliseconds. */
  fresh(target: LiveTarget): Promise<number>;
  park(target: LiveTarget): Promise<void>;
}

/** Cells done and planned in the whole run, and the seconds the measured ones took, for the progress line. */
export interface CellCounter {
  cell: number;
  total: number;
  measured?: number;
  seconds?: number;
}

/** The run's options a scenario needs (options/types.ts's BenchOptions has them all; see there what each means). */
export interface RunOptions {
  connections: number[];
  repeats: number;
  maxRepeats: number;
  precision: number;
  warmupS: number;
  durationS: number;
  rate: number | undefined;
  pipelining: number;
  verifySample: number;
  smoke: boolean;
  rates?: number[] | undefined;
  slo?: { percentile: number; boundMs: number } | undefined;
  settleS?: number;
  restart?: "cell" | "run";
  /** Times a disturbed cell is run again (0 in a smoke run). */
  reruns: number;
  /** --count instructions: each cell counted under callgrind (runner/instructions.ts). */
  instructions?: InstructionPlan | undefined;
}

export interface ScenarioRunContext {
  pools: Pools;
  seed: number;
  options: RunOptions;
  loadGenerator: LoadGenerator;
  /** --pairing duet: what measuring two servers at once needs (absent: sequential). */
  duet?: DuetContext;
  /** PostgreSQL's postmaster, when local: its CPU per cell is recorded too. */
  postmaster?: number;
  /** The limit baseline every ratio is taken to, and the data-access baselines (for the precision check). */
  baseline?: string;
  io: RunIo;
  counter: CellCounter;
  /** --profile: records each measured cell's CPU profile of the server. */
  profiler?: Profiler;
  /** A server's recent output, shown when its verification fails. */
  output?: (target: string) => string;
  /** --restart cell: fresh server processes for each cell (runner/restart.ts). */
  restart?: Restarter;
  /** An interleaved growth run: the data scale this context's cells run at (shown on the progress line). */
  scale?: number;
  /** Whether one more round of this many seconds still fits the run's budget. */
  canExtend?: (seconds: number) => boolean;
  /** --count instructions: where the servers' callgrind dumps are written. */
  callgrindDir?: string;
}

/** What the cells of one scenario share: its name, measured length and planned seconds per cell. */
export interface ScenarioPlan {
  name: ScenarioName;
  warmupS: number;
  durationS: number;
  cellSeconds: number;
}
