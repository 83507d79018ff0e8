// Progress of a fault run, as the bench shows its own: which implementation and fault is running, how many of the
// run's cells are done, and about how long is left (and, inside hostile input, how many requests are answered). Vitest prints a test's output when the test file ends, which on
// the long run meant minutes of silence, so these lines go straight to the terminal (file descriptor 2, which every
// worker shares with the command). Cells run in separate workers: the finished ones are recorded in a file that
// global-setup creates, from which each new cell reads how far the run is and how long each fault took.
import { appendFileSync, readFileSync, writeSync } from "node:fs";
import { formatDuration } from "@api-ref/harness";
import type { FaultName, Mode } from "../options.ts";

/** Rough seconds per cell, by mode and fault, until this run has measured its own. */
const PRIOR_SECONDS: Record<Mode, Record<FaultName, number>> = {
  short: { shutdown: 6, "db-outage": 10, "hostile-input": 5, "schema-fuzz": 40, soak: 8 },
  long: { shutdown: 12, "db-outage": 25, "hostile-input": 45, "schema-fuzz": 240, soak: 125 },
};

interface Finished {
  impl: string;
  fault: FaultName;
  seconds: number;
}

export interface ProgressPlan {
  file: string;
  mode: Mode;
  impls: string[];
  faults: FaultName[];
}

const say = (line: string) => {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // No terminal to write to: progress is a courtesy, never a failure.
  }
};

function finished(plan: ProgressPlan): Finished[] {
  try {
    return readFileSync(plan.file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Finished);
  } catch {
    return [];
  }
}

/** Seconds left for the cells not finished yet (a running one counted whole), from this run's own timings. */
export function secondsLeft(plan: ProgressPlan, done: Finished[]) {
  const measured = (fault: FaultName) => done.filter((d) => d.fault === fault).map((d) => d.seconds);
  // Faults not measured yet: their prior, scaled by how this machine compares with the priors so far.
  const ratio = done.length
    ? done.reduce((s, d) => s + d.seconds, 0) / done.reduce((s, d) => s + PRIOR_SECONDS[plan.mode][d.fault], 0)
    : 1;
  let left = 0;
  for (const fault of plan.faults)
    for (const impl of plan.impls) {
      if (done.some((d) => d.impl === impl && d.fault === fault)) continue;
      const own = measured(fault);
      const estimate = own.length
        ? own.reduce((a, b) => a + b, 0) / own.length
        : PRIOR_SECONDS[plan.mode][fault] * ratio;
      left += estimate;
    }
  return left;
}

/** Announces a cell; returns what to call when it ends. */
export function startCell(plan: ProgressPlan, impl: string, fault: FaultName): () => void {
  const cells = plan.impls.length * plan.faults.length;
  const done = finished(plan);
  const started = Date.now();
  say(
    `faults: [${done.length + 1}/${cells}] ${fault} · ${impl} · running · ~${formatDuration(secondsLeft(plan, done))} left`,
  );
  return () => {
    const seconds = (Date.now() - started) / 1000;
    try {
      appendFileSync(plan.file, `${JSON.stringify({ impl, fault, seconds } satisfies Finished)}\n`);
    } catch {
      // As above.
    }
    const now = finished(plan);
    say(
      `faults: [${now.length}/${cells}] ${fault} · ${impl} · done in ${formatDuration(seconds)} · ~${formatDuration(secondsLeft(plan, now))} left`,
    );
  };
}

/** A line from inside a long cell (hostile input's requests, the soak's samples). */
export function cellNote(impl: string, fault: FaultName, text: string) {
  say(`faults:        ${fault} · ${impl} · ${text}`);
}
