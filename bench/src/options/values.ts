// Reading one option's text: numbers in a range, comma lists, rates, latency bounds and sizes; a mistake is a
// UsageError whose message names the option.
import { parseScale } from "@api-ref/db/seed";
import { UsageError } from "./types.ts";

export function number(name: string, raw: string, check: (n: number) => boolean, rule: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || !check(n))
    throw new UsageError(`--${name} must be ${rule}, got "${raw}"`);
  return n;
}

export function list(name: string, raw: string): string[] {
  const items = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${name} needs at least one value`);
  return items;
}

/** The command line's raw values, by option name. */
export type Values = Record<string, string | boolean | undefined>;

/** A value-taking option's raw text, if given. */
export const strOf = (values: Values) => (key: string) => values[key] as string | undefined;

/** A numeric option's value, checked against `rule`; `fallback` when the option is not given. */
export function numberOption<F>(
  values: Values,
  name: string,
  check: (n: number) => boolean,
  rule: string,
  fallback: F,
) {
  const raw = strOf(values)(name);
  return raw === undefined ? fallback : number(name, raw, check, rule);
}

export function integerOption<F>(values: Values, name: string, min: number, max: number, fallback: F) {
  const rule = `an integer from ${min} to ${max}`;
  return numberOption(values, name, (n) => Number.isInteger(n) && n >= min && n <= max, rule, fallback);
}

const RATE_RULE = "an integer from 1 to 1000000 (requests/s)";
const isRate = (n: number) => Number.isInteger(n) && n >= 1 && n <= 1_000_000;

/**
 * `--rate`: one rate (`500`), a list (`100,500,1000`) or a ramp (`10..1500x8`: eight evenly spaced rates from
 * 10 to 1500 inclusive, rounded to whole requests/s). Returns the rates in the order given (a ramp ascending).
 */
export function parseRates(raw: string): number[] {
  const text = raw.trim();
  if (text.includes("..") || /x/i.test(text)) {
    const ramp = /^(\d+)\.\.(\d+)x(\d+)$/i.exec(text);
    if (!ramp) throw new UsageError(`--rate ramp is FROM..TOxSTEPS, e.g. 10..1500x8; got "${raw}"`);
    const [from, to, steps] = [Number(ramp[1]), Number(ramp[2]), Number(ramp[3])];
    if (!isRate(from) || !isRate(to)) throw new UsageError(`--rate ramp ends must each be ${RATE_RULE}, got "${raw}"`);
    if (to <= from) throw new UsageError(`--rate ramp must go up: ${from}..${to} ends below where it starts`);
    if (!Number.isInteger(steps) || steps < 2 || steps > 50) {
      throw new UsageError(`--rate ramp needs from 2 to 50 steps (the x count), got "${raw}"`);
    }
    const rates = Array.from({ length: steps }, (_, i) => Math.round(from + ((to - from) * i) / (steps - 1)));
    if (new Set(rates).size !== rates.length) {
      throw new UsageError(`--rate ${raw}: ${steps} steps from ${from} to ${to} repeat a rate; use fewer steps`);
    }
    return rates;
  }
  const rates = list("rate", text).map((item) => number("rate", item, isRate, RATE_RULE));
  if (new Set(rates).size !== rates.length) throw new UsageError(`--rate names a rate twice: "${raw}"`);
  if (rates.length > 50) throw new UsageError(`--rate takes at most 50 rates, got ${rates.length}`);
  return rates;
}

const SLO_PERCENTILES = [50, 90, 95, 99, 99.9] as const;
const UNIT_MS: Record<string, number> = { us: 0.001, µs: 0.001, ms: 1, s: 1000 };

/** `--slo p99<50ms`: a latency percentile and the bound it must stay under. */
export function parseSlo(raw: string): { percentile: number; boundMs: number } {
  const match = /^p(\d+(?:\.\d+)?)\s*<\s*(\d+(?:\.\d+)?)\s*(us|µs|ms|s)$/i.exec(raw.trim());
  const rule = `--slo is pP<BOUND with P one of ${SLO_PERCENTILES.join(", ")} and a bound in us, ms or s (e.g. p99<50ms); got "${raw}"`;
  if (!match) throw new UsageError(rule);
  const percentile = Number(match[1]);
  const boundMs = Number(match[2]) * (UNIT_MS[(match[3] as string).toLowerCase()] ?? Number.NaN);
  if (!(SLO_PERCENTILES as readonly number[]).includes(percentile)) throw new UsageError(rule);
  if (!(boundMs > 0) || boundMs > 600_000)
    throw new UsageError(`--slo bound must be above 0 and at most 600 s; got "${raw}"`);
  return { percentile, boundMs };
}

const MEMORY_UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** `--memory 256M`: bytes (suffix K, M or G, powers of 1024; an optional trailing B or iB), at least 16 MiB. */
export function parseMemory(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(raw.trim());
  if (!match) throw new UsageError(`--memory is a size such as 256M or 1G, got "${raw}"`);
  const bytes = Math.floor(Number(match[1]) * (MEMORY_UNITS[(match[2] as string).toLowerCase()] ?? Number.NaN));
  if (!(bytes >= 16 * 1024 ** 2))
    throw new UsageError(`--memory must be at least 16M (a server needs more), got "${raw}"`);
  return bytes;
}

/** `--scale 1,10,100`: each value as the seed takes it, none twice, ascending (a growth run reads smallest first). */
export function parseScales(raw: string): number[] {
  const scales = list("scale", raw).map((item) => {
    try {
      return parseScale(item);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  });
  const twice = scales.find((scale, i) => scales.indexOf(scale) !== i);
  if (twice !== undefined) throw new UsageError(`--scale names ${twice} twice: "${raw}"`);
  return scales.sort((a, b) => a - b);
}
