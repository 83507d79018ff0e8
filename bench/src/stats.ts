// The few statistics the report uses, kept small and exact so that a test can check them on known inputs.

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** How many values the spread was taken over. */
  n: number;
}

/** The middle value; for an even count, the mean of the two middle values. NaN for no values. */
export function median(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (finite.length === 0) return Number.NaN;
  const mid = finite.length >> 1;
  return finite.length % 2 === 1
    ? (finite[mid] as number)
    : ((finite[mid - 1] as number) + (finite[mid] as number)) / 2;
}

/** Median with min and max over the finite values (NaN everywhere when there are none). */
export function spread(values: readonly number[]): Spread {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite), n: finite.length };
}

/** value / baseline; NaN when either is missing or the baseline is zero. */
export function ratio(value: number, baseline: number): number {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return Number.NaN;
  return value / baseline;
}

/**
 * The ratio of paired repeats (repeat i of the implementation over repeat i of the baseline, measured next to
 * each other), summarised as median and min–max: the spread says how much the ratio itself moved between repeats.
 */
export function pairedRatios(values: readonly number[], baselines: readonly number[]): Spread {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(values.length, baselines.length); i++) {
    ratios.push(ratio(values[i] as number, baselines[i] as number));
  }
  return spread(ratios);
}

/** Nearest-rank percentile (p in 0–100) of values sorted ascending; NaN for none. */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  const n = sortedAscending.length;
  if (n === 0) return Number.NaN;
  const rank = Math.min(n, Math.max(1, Math.ceil((p / 100) * n)));
  return sortedAscending[rank - 1] as number;
}

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  count: number;
}

/** Percentiles of a set of latencies (milliseconds), computed exactly from every sample. */
export function summariseLatencies(latencies: Float64Array | number[]): LatencySummary {
  const sorted = Float64Array.from(latencies).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    count: sorted.length,
  };
}
