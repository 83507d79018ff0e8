// --disturb: a reproducible synthetic disturbance for the precision study and for anyone checking how a design
// holds up on a busy machine. N processes (default 2, one per core here), unpinned, each alternating bursts of
// busy CPU and idle gaps of seeded random lengths (100–1,500 ms each), from the start of the first scenario to
// the end of the run — what another tenant on the host, a build or a browser does to a benchmark.
import { type ChildProcess, spawn } from "node:child_process";

/** Each hog's bursts and gaps, in ms (uniform in this range, from its own seeded random source). */
export const DISTURB_BURST_MS = [100, 1500] as const;

/** The hog: a tiny program given to `node -e`, so that nothing but a loop runs in it. */
const HOG = `
let s = Number(process.argv[1]) >>> 0 || 1;
const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
const [lo, hi] = JSON.parse(process.argv[2]);
const span = () => lo + next() * (hi - lo);
function burst() {
  const until = performance.now() + span();
  while (performance.now() < until);
  setTimeout(burst, span());
}
setTimeout(burst, span());
// Never outlive the bench (a run killed without its cleanup).
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    process.exit(0);
  }
}, 500);
`;

export class Disturbance {
  private readonly hogs: ChildProcess[] = [];
  readonly processes: number;
  readonly seed: number;

  constructor(processes: number, seed: number) {
    this.processes = processes;
    this.seed = seed;
  }

  /** Starts the hogs (each with its own seed derived from the run's). */
  start() {
    for (let i = 0; i < this.processes; i++) {
      const hog = spawn(process.execPath, ["-e", HOG, String(this.seed + i * 7919), JSON.stringify(DISTURB_BURST_MS)], {
        stdio: "ignore",
      });
      this.hogs.push(hog);
    }
  }

  stop() {
    for (const hog of this.hogs.splice(0)) hog.kill("SIGKILL");
  }

  /** What results.json records of it. */
  get record() {
    return {
      processes: this.processes,
      burstMs: [...DISTURB_BURST_MS],
      gapMs: [...DISTURB_BURST_MS],
      seed: this.seed,
      note: "unpinned busy loops, each alternating a busy burst and an idle gap of random length (seeded)",
    };
  }
}
