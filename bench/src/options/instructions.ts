// --count instructions: each cell a fresh server process under callgrind (runner/callgrind.ts), warmed up by a number
// of requests, then counted over rounds of a number of requests. The figures (defaults and smoke) and what the mode
// cannot be combined with.
import type { InstructionPlan } from "./types.ts";
import { UsageError } from "./types.ts";

export const COUNTS = ["instructions"] as const;

/**
 * Warm-up and rounds of the prototype on this VM (bench/docs/method.md, "Instructions per request"): two fresh Node
 * processes agreed within 0.3–1.1% on hello; the rounds of one process within ±2–5% (a major GC lands in one round,
 * not another), so a cell's figure is its rounds' mean and the intervals are taken across processes.
 */
export const DEFAULT_INSTRUCTION_PLAN: InstructionPlan = { warmupRequests: 20_000, requests: 2_000, rounds: 4 };
/** A smoke run checks the mode works end to end, nothing more. */
export const SMOKE_INSTRUCTION_PLAN: InstructionPlan = { warmupRequests: 300, requests: 200, rounds: 2 };

/** The instruction plan of `--count instructions`, or undefined without it; throws on what cannot go with it. */
export function instructionPlanOf(
  raw: string | undefined,
  plan: string | undefined,
  run: {
    smoke: boolean;
    remote: boolean;
    duet: boolean;
    rates: boolean;
    slo: boolean;
    profile: boolean;
    workers: number;
    restart: string | undefined;
  },
): InstructionPlan | undefined {
  if (raw === undefined) {
    if (plan !== undefined) throw new UsageError("--count-plan goes with --count instructions");
    return undefined;
  }
  if (!(COUNTS as readonly string[]).includes(raw)) {
    throw new UsageError(`--count must be one of ${COUNTS.join(", ")}, got "${raw}"`);
  }
  const clash = [
    run.remote ? "--target (callgrind runs the servers the bench starts)" : "",
    run.duet ? "--pairing duet (counts are not shared CPU)" : "",
    run.rates || run.slo ? "--rate or --slo (a count is per request, not a latency)" : "",
    run.profile ? "--profile (callgrind is the profiler)" : "",
    run.workers > 1 ? "--workers (callgrind counts one process)" : "",
    run.restart === "run" ? "--restart run (every cell is a fresh process under callgrind)" : "",
  ].filter(Boolean);
  if (clash.length > 0) throw new UsageError(`--count instructions cannot be combined with ${clash.join(", ")}`);
  if (plan !== undefined) return parseInstructionPlan(plan);
  return run.smoke ? SMOKE_INSTRUCTION_PLAN : DEFAULT_INSTRUCTION_PLAN;
}

/** A plan as `--count-plan` takes it. */
export function planText(plan: InstructionPlan): string {
  return `${plan.warmupRequests}+${plan.rounds}x${plan.requests}`;
}

/** `--count-plan W+RxN`: W requests of warm-up, then R rounds of N counted requests (e.g. `20000+3x10000`). */
export function parseInstructionPlan(text: string): InstructionPlan {
  const parts = /^(\d+)\+(\d+)x(\d+)$/.exec(text.replaceAll("_", "").replaceAll(",", ""));
  const plan = parts && { warmupRequests: Number(parts[1]), rounds: Number(parts[2]), requests: Number(parts[3]) };
  if (!plan || plan.rounds < 1 || plan.requests < 1) {
    throw new UsageError(
      `--count-plan must be WARMUP+ROUNDSxREQUESTS, at least one round of one request (e.g. 20000+3x10000), got "${text}"`,
    );
  }
  return plan;
}
