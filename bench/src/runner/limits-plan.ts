// The control groups servers run in: --cpus/--memory's, or duet's (every server under the same quota, its CPU
// accounted); and duet's own load generators.
import { LimitsUnavailable, ServerLimits } from "../limits.ts";
import { LoadGenerator } from "../load/generator.ts";
import type { BenchOptions } from "../options/types.ts";
import { backendPids } from "./database.ts";
import type { DuetContext, RunIo } from "./types.ts";

/** duet: each side's quota period. A short one throttles in small steps, so neither side stalls for long at once. */
export const DUET_PERIOD_US = 10_000;

/**
 * The run's groups. Where duet was the default and the machine cannot make groups, the run falls back to sequential
 * and says so; where duet or a limit was asked for, it refuses (LimitsUnavailable) before anything starts.
 */
export function planLimits(
  options: BenchOptions,
  io: RunIo,
): { options: BenchOptions; limits: ServerLimits | undefined } {
  if (options.pairing === "duet") {
    try {
      const limits = new ServerLimits({
        cpus: options.duetCpus,
        memoryBytes: options.memoryBytes,
        periodUs: DUET_PERIOD_US,
      });
      return { options, limits };
    } catch (error) {
      if (!(error instanceof LimitsUnavailable) || options.pairingAsked) {
        if (error instanceof LimitsUnavailable) {
          throw new LimitsUnavailable(error.message.replace("--cpus/--memory", "--pairing duet"));
        }
        throw error;
      }
      const why = error.message.replace(/^[^:]*: /, "");
      io.log(
        `pairing: sequential (duet needs control groups: ${why}); ratios then carry the machine's drift between cells`,
      );
      options = { ...options, pairing: "sequential" };
    }
  }
  const wantsLimits = options.cpus !== undefined || options.memoryBytes !== undefined;
  const limits = wantsLimits ? new ServerLimits({ cpus: options.cpus, memoryBytes: options.memoryBytes }) : undefined;
  return { options, limits };
}

/** duet: two unpinned load generators, and the backends of a database when PostgreSQL is a local process. */
export function duetContext(postmaster: number | undefined, pin: boolean): DuetContext {
  return {
    loadGenerators: [new LoadGenerator(undefined), new LoadGenerator(undefined)],
    pin,
    ...(postmaster ? { backends: backendPids } : {}),
  };
}
