// The verdict on one published ratio against the ratio measured here: a pure function with explicit thresholds
// (documented in bench/docs/method.md, "The claims table and its verdicts").
import type { Interval } from "../stats.ts";

/** The measured ratio is within ±15% of the published one (or its 95% interval contains it): the claim holds. */
export const HOLD_TOLERANCE = 0.15;
/** A ratio within 1 ± 5% is "no difference": neither side is ahead. */
export const EVEN_BAND = 0.05;
/** A 95% interval wider than ±25% is too wide to say that a claim does not hold: "can't tell". */
export const WIDE = 0.25;

/** Every verdict, in the order the claims page counts them. */
export const VERDICTS = [
  "holds",
  "holds in direction only",
  "does not hold",
  "can't tell",
  "not measured here",
] as const;
export type Verdict = (typeof VERDICTS)[number];

/** -1: the first framework is lower; 0: no difference (within EVEN_BAND, or the interval contains 1); 1: higher. */
function direction(value: number, low = Number.NaN, high = Number.NaN): -1 | 0 | 1 {
  if (Number.isFinite(low) && Number.isFinite(high) && low <= 1 && high >= 1) return 0;
  if (Math.abs(Math.log(value)) <= Math.log(1 + EVEN_BAND)) return 0;
  return value > 1 ? 1 : -1;
}

/** The interval's relative half-width, its larger side (NaN without an interval). */
const halfWidthOf = ({ value, low, high }: Pick<Interval, "value" | "low" | "high">) =>
  Math.max(high / value, value / low) - 1;

// The article's A ÷ B against ours. holds: within ±HOLD_TOLERANCE, or the claim in our interval (unless it holds 1);
// in direction only: same side of 1, not as large; can't tell: the interval holds the claim, is wider than ±WIDE or
// missing; does not hold: the other side of 1, or no difference where one was claimed.
export function verdictOf(claimed: number, measured: Pick<Interval, "value" | "low" | "high">): Verdict {
  if (!Number.isFinite(measured.value) || measured.value <= 0 || !Number.isFinite(claimed) || claimed <= 0) {
    return "not measured here";
  }
  const near = Math.abs(Math.log(measured.value / claimed)) <= Math.log(1 + HOLD_TOLERANCE);
  const containsClaim = measured.low <= claimed && claimed <= measured.high;
  // An interval wide enough to hold both the claim and "no difference" confirms nothing: only `near` counts then.
  const even = direction(claimed) === 0;
  if (near || (containsClaim && (even || !(measured.low <= 1 && measured.high >= 1)))) return "holds";
  const said = direction(claimed);
  const seen = direction(measured.value, measured.low, measured.high);
  if (said !== 0 && said === seen) return "holds in direction only";
  const noInterval = !Number.isFinite(measured.low) || !Number.isFinite(measured.high);
  return containsClaim || noInterval || halfWidthOf(measured) > WIDE ? "can't tell" : "does not hold";
}
