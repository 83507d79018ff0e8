// What one load run reports, whichever generator produced it.
import { type LatencySummary, summariseLatencies } from "../stats.ts";

export interface LoadOutcome {
  durationS: number;
  /** Responses received. */
  completed: number;
  requestsPerSecond: number;
  statusCounts: Record<string, number>;
  non2xx: number;
  /** Socket errors and timeouts (timeouts are also counted on their own). */
  errors: number;
  timeouts: number;
  /** Milliseconds, exact percentiles over every response. */
  latency: LatencySummary;
  /**
   * Fixed-rate mode only: the rate asked for, requests due, requests still unsent when the run ended and requests
   * still in flight then (both abandoned after the grace, their latency so far recorded as a lower bound).
   */
  fixedRate?: { target: number; scheduled: number; unsent: number; abandoned: number };
}

/** Every latency of a run (milliseconds, sub-millisecond resolution), in a growable typed array. */
export class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private length = 0;

  record(ms: number) {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = ms;
  }

  summary(): LatencySummary {
    return summariseLatencies(this.values.subarray(0, this.length));
  }
}

export class StatusCounter {
  counts: Record<string, number> = {};
  total = 0;
  non2xx = 0;

  add(status: number) {
    this.total++;
    if (status < 200 || status > 299) this.non2xx++;
    this.counts[status] = (this.counts[status] ?? 0) + 1;
  }
}
