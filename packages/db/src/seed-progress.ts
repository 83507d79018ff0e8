// What a seed reports as it runs, and its progress line (pnpm db:seed, the bench's template): one line per phase.

/**
 * What a seed is doing, in this order: writing each table's rows (`done` of `total` rows), putting each table in
 * creation order (`done` of 3 tables), rebuilding the indexes and then the foreign keys it dropped for the load
 * (`done` of `total` of them), vacuuming and analysing the tables (0 or 1 of 1).
 */
export const SEED_PHASES = ["users", "products", "orders", "cluster", "indexes", "foreign keys", "vacuum"] as const;
export type SeedPhase = (typeof SEED_PHASES)[number];
export interface SeedStep {
  phase: SeedPhase;
  done: number;
  total: number;
}
/** Called as a seed advances: every phase at least once, in SEED_PHASES order, each ending with done = total. */
export type SeedProgress = (step: SeedStep) => void;

/** Where the line goes: stderr, or anything that writes text and says whether it is a terminal. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** How often, at most, a terminal's line is redrawn. */
const REDRAW_MS = 100;

const count = (n: number) => n.toLocaleString("en-US");

/** `seed: orders 400,000/1,000,000 (40%) 12.3 s`, the time being the phase's own so far. */
export function formatSeedStep(step: SeedStep, elapsedMs: number): string {
  const percent = step.total === 0 ? 100 : Math.floor((step.done / step.total) * 100);
  return `seed: ${step.phase} ${count(step.done)}/${count(step.total)} (${percent}%) ${(elapsedMs / 1000).toFixed(1)} s`;
}

/**
 * A SeedProgress that prints to `stream` (default stderr). On a terminal, each phase's line is redrawn in place at
 * most every REDRAW_MS and kept, finished, once the phase ends; elsewhere (a pipe, a log file, CI) only the finished
 * line of each phase is written, so a log gets one line per phase, never a line per batch.
 */
export function seedProgressPrinter(
  stream: ProgressStream = process.stderr,
  now: () => number = () => performance.now(),
): SeedProgress {
  const tty = stream.isTTY === true;
  let phase: SeedPhase | undefined;
  let phaseStarted = now();
  let drawn = Number.NEGATIVE_INFINITY;
  return (step) => {
    const at = now();
    if (step.phase !== phase) {
      // A phase starts when the one before it ended (the first, when the printer was made): its time
      // includes the wait for its first report (drawing its first rows, building its first index).
      if (phase !== undefined) phaseStarted = at;
      phase = step.phase;
      drawn = Number.NEGATIVE_INFINITY;
    }
    const finished = step.done >= step.total;
    if (finished) {
      stream.write(`${tty ? "\r\x1b[2K" : ""}${formatSeedStep(step, at - phaseStarted)}\n`);
      phase = undefined;
      phaseStarted = at;
    } else if (tty && at - drawn >= REDRAW_MS) {
      stream.write(`\r\x1b[2K${formatSeedStep(step, at - phaseStarted)}`);
      drawn = at;
    }
  };
}
