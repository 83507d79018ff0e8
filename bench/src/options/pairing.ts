// --pairing and --restart: how a ratio's two sides are measured and how often servers start. Some modes need one
// server at a time, or one process per server: those rule the others out (asked for: an error; by default: not used).
import type { Pairing } from "../results/schema.ts";
import { defaultOf } from "./table.ts";
import { PAIRINGS, RESTARTS, type Restart, UsageError } from "./types.ts";
import { numberOption, strOf, type Values } from "./values.ts";

/** The first of `rules` whose condition holds: the option that rules a mode out, as the error names it. */
const firstOf = (rules: ReadonlyArray<readonly [boolean, string]>) => rules.find(([holds]) => holds)?.[1];

/** --pairing and --duet-cpus; fixed rates, capacity searches, profiles, limits, workers, --target: one at a time. */
export function pairingOf(
  values: Values,
  run: { rate: boolean; slo: boolean; profile: boolean; remote: boolean; cpus: boolean; workers: number },
) {
  const str = strOf(values);
  const pairingArg = str("pairing");
  if (pairingArg !== undefined && !(PAIRINGS as readonly string[]).includes(pairingArg)) {
    throw new UsageError(`--pairing must be one of ${PAIRINGS.join(", ")}, got "${pairingArg}"`);
  }
  const oneAtATime = firstOf([
    [str("rate") !== undefined, "--rate"],
    [run.slo, "--slo"],
    [run.profile, "--profile"],
    [run.remote, "--target"],
    [run.cpus, "--cpus"],
    [run.workers > 1, "--workers"],
  ]);
  if (pairingArg === "duet" && oneAtATime) {
    throw new UsageError(
      `--pairing duet measures two servers at once under its own quotas: it cannot be combined with ${oneAtATime} ` +
        "(use --pairing sequential)",
    );
  }
  const pairing =
    (pairingArg as Pairing | undefined) ?? (oneAtATime ? "sequential" : defaultOf<Pairing>("pairing", false));
  const duetCpus = numberOption(
    values,
    "duet-cpus",
    (n) => n >= 0.05 && n <= 1,
    "a number of cores from 0.05 to 1",
    defaultOf<number>("duet-cpus", false),
  );
  if (str("duet-cpus") !== undefined && pairing !== "duet")
    throw new UsageError("--duet-cpus applies to --pairing duet");
  return { pairing, pairingAsked: pairingArg !== undefined, duetCpus };
}

/**
 * `--restart`: a fresh process per cell needs servers the bench starts one at a time, each cell on its own process;
 * what cannot have it refuses it when asked and runs `run` by default, as does a smoke run (it checks answers only).
 */
export function restartOf(
  raw: string | undefined,
  run: { smoke: boolean; duet: boolean; rates: boolean; slo: boolean; profile: boolean; remote: boolean },
): Restart {
  if (raw !== undefined && !(RESTARTS as readonly string[]).includes(raw)) {
    throw new UsageError(`--restart must be one of ${RESTARTS.join(", ")}, got "${raw}"`);
  }
  const without = firstOf([
    [run.remote, "--target (the bench does not start those servers)"],
    [run.duet, "--pairing duet (each pair's servers keep their control groups)"],
    [run.rates, "a --rate list (each rate's cell follows the last on the same server)"],
    [run.slo, "--slo (its probes start from the throughput just measured on the same server)"],
    [run.profile, "--profile (one profile per server process)"],
  ]);
  if (raw === "cell" && without) throw new UsageError(`--restart cell cannot be combined with ${without}`);
  if (raw !== undefined) return raw as Restart;
  return without ? "run" : defaultOf<Restart>("restart", run.smoke);
}
