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
  /** Also computed (for --slo p95 / p99.9); absent in results written before they were. */
  p95?: number;
  p999?: number;
}

/** The latency at a percentile (50, 90, 95, 99 or 99.9) from a summary; NaN when the summary lacks it. */
export function latencyAt(summary: LatencySummary, p: number): number {
  const byPercentile: Record<string, number | undefined> = {
    "50": summary.p50,
    "90": summary.p90,
    "95": summary.p95,
    "99": summary.p99,
    "99.9": summary.p999,
  };
  return byPercentile[String(p)] ?? Number.NaN;
}

/** Percentiles of a set of latencies (milliseconds), computed exactly from every sample. */
export function summariseLatencies(latencies: Float64Array | number[]): LatencySummary {
  const sorted = Float64Array.from(latencies).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    count: sorted.length,
  };
}

/** A ratio with its 95% confidence interval; `halfWidth` is relative (0.05 = ±5%), NaN with fewer than 2 pairs. */
export interface Interval {
  /** The geometric mean of the paired ratios (the mean of their logarithms, back-transformed). */
  value: number;
  low: number;
  high: number;
  halfWidth: number;
  /** Pairs it was computed from. */
  n: number;
}

/** Student's t, two-sided 95% (0.975 quantile), by degrees of freedom 1–30; beyond that 1.96 is within 2%. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
export const tQuantile975 = (df: number) => (df < 1 ? Number.NaN : (T975[df - 1] ?? 1.96));

/**
 * The 95% interval of a paired ratio (values[i] / baselines[i]): Student's t on the logarithms, since ratios multiply;
 * pairs missing a side skipped. The half-width is the larger relative distance to either end (it is not symmetric).
 */
export function pairedInterval(values: readonly number[], baselines: readonly number[]): Interval {
  const logs: number[] = [];
  for (let i = 0; i < Math.min(values.length, baselines.length); i++) {
    const r = ratio(values[i] as number, baselines[i] as number);
    if (Number.isFinite(r) && r > 0) logs.push(Math.log(r));
  }
  const n = logs.length;
  if (n === 0) return { value: Number.NaN, low: Number.NaN, high: Number.NaN, halfWidth: Number.NaN, n };
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { value: Math.exp(mean), low: Number.NaN, high: Number.NaN, halfWidth: Number.NaN, n };
  const variance = logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  const half = tQuantile975(n - 1) * Math.sqrt(variance / n);
  return {
    value: Math.exp(mean),
    low: Math.exp(mean - half),
    high: Math.exp(mean + half),
    // exp(+h) − 1 ≥ 1 − exp(−h): the upper side is the wider one.
    halfWidth: Math.exp(half) - 1,
    n,
  };
}

/** A mean difference with its 95% interval, in the unit of what was subtracted (not relative, unlike Interval). */
export interface MeanDifference {
  mean: number;
  low: number;
  high: number;
  n: number;
}

/** The 95% interval of values[i] − baselines[i] (Student's t); pairs missing a side skipped. */
export function pairedDifference(values: readonly number[], baselines: readonly number[]): MeanDifference {
  const diffs: number[] = [];
  for (let i = 0; i < Math.min(values.length, baselines.length); i++) {
    const d = (values[i] as number) - (baselines[i] as number);
    if (Number.isFinite(d)) diffs.push(d);
  }
  const n = diffs.length;
  const mean = n === 0 ? Number.NaN : diffs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, low: Number.NaN, high: Number.NaN, n };
  const variance = diffs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  const half = tQuantile975(n - 1) * Math.sqrt(variance / n);
  return { mean, low: mean - half, high: mean + half, n };
}

/**
 * The product of two independent ratios (a ÷ b from one set of pairs, b ÷ c from another) with its 95% interval:
 * the logarithms add, so do their variances; the degrees of freedom are Welch–Satterthwaite's.
 */
export function productInterval(a: Interval, b: Interval): Interval {
  const value = a.value * b.value;
  const n = Math.min(a.n, b.n);
  const se = (i: Interval) => Math.log(1 + i.halfWidth) / tQuantile975(i.n - 1);
  if (!Number.isFinite(a.halfWidth) || !Number.isFinite(b.halfWidth)) {
    return { value, low: Number.NaN, high: Number.NaN, halfWidth: Number.NaN, n };
  }
  const [va, vb] = [se(a) ** 2, se(b) ** 2];
  const df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  const half = tQuantile975(Math.max(1, Math.floor(df))) * Math.sqrt(va + vb);
  return { value, low: value * Math.exp(-half), high: value * Math.exp(half), halfWidth: Math.exp(half) - 1, n };
}

/**
 * What an interval lets one say, `band` being the smallest difference the run resolves. higher / lower: all of it
 * beyond 1 by more than `band`; even: it holds 1 (or is within `band`), no wider than ±band; else can't tell.
 */
export type Difference = "higher" | "lower" | "even" | "can't tell";

export function differenceOf(
  interval: Pick<Interval, "value" | "low" | "high" | "halfWidth">,
  band: number,
): Difference {
  const { value, low, high, halfWidth } = interval;
  if (![value, low, high, halfWidth].every(Number.isFinite) || value <= 0) return "can't tell";
  const beyondBand = Math.abs(Math.log(value)) > Math.log(1 + band);
  if (low > 1 && beyondBand) return "higher";
  if (high < 1 && beyondBand) return "lower";
  return halfWidth <= band ? "even" : "can't tell";
}
