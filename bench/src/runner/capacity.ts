// Capacity at a latency bound (--slo p99<50ms): per target, the highest fixed rate keeping that percentile under the
// bound with no errors while keeping up. Short probes double from START_RATE, then bisect to within RESOLUTION; a
// full-length run confirms, else the rate steps down by RESOLUTION (at most MAX_STEP_DOWNS times) and says so.
import type { CapacityResult, CellResult, Probe, Slo } from "../results/schema.ts";
import { latencyAt } from "../stats.ts";
import { measureCell } from "./cell.ts";
import { finishState, type ScenarioPlan, startState } from "./repeats.ts";
import { achievedRate, keptUp } from "./sweep.ts";
import type { LiveTarget, ScenarioRunContext } from "./types.ts";

export const START_RATE = 100;
/** The search stops when the bracket is this narrow relative to the rate that passed (0.1 = within 10%). */
export const RESOLUTION = 0.1;
export const MAX_STEP_DOWNS = 3;
const MAX_RATE = 1_000_000;
/** Probes planned per target for the progress line (the search takes about this many at 10% resolution). */
export const PLANNED_PROBES = 12;

export type { CapacityResult, Probe, Slo } from "../results/schema.ts";

export const sloLabel = (slo: Slo) =>
  `p${slo.percentile}<${slo.boundMs < 1 ? `${slo.boundMs * 1000}us` : `${slo.boundMs}ms`}`;

/** Whether a fixed-rate cell held the bound, with the percentile measured and what failed. */
export function judgeProbe(cell: CellResult, slo: Slo, rate: number): Probe {
  const latencyMs = cell.outcome ? latencyAt(cell.outcome.latency, slo.percentile) : Number.NaN;
  let why: string | undefined;
  if (cell.failure) why = cell.failure;
  else if (!keptUp(cell)) why = `fell behind: ${Math.round(achievedRate(cell))} of ${rate} req/s answered`;
  else if (!(latencyMs < slo.boundMs)) why = `p${slo.percentile} ${latencyMs.toFixed(1)} ms ≥ ${slo.boundMs} ms`;
  // The fixed-rate generator has a limit of its own: past it, what fails is the load generator, not the server.
  if (why && cell.loadGenerator?.saturated) why += " (load generator saturated: maybe its limit, not the server's)";
  return { rate, passed: !why, latencyMs, ...(why ? { why } : {}) };
}

/** The next rate to probe, or undefined when the bracket [passed, failed) is narrow enough. */
export function nextRate(passed: number, failed: number | undefined): number | undefined {
  if (failed === undefined) return passed >= MAX_RATE ? undefined : Math.min(MAX_RATE, passed * 2);
  if (passed === 0) return failed <= 1 ? undefined : Math.floor(failed / 2);
  if (failed - passed <= Math.max(1, passed * RESOLUTION)) return undefined;
  return Math.round((passed + failed) / 2);
}

/**
 * The search itself, over any probe (`full`: a full-length confirmation run rather than a short probe): the
 * highest rate that held, confirmed, and every probe in order.
 */
export async function searchCapacity(probe: (rate: number, full: boolean) => Promise<Probe>, start = START_RATE) {
  const probes: Probe[] = [];
  let passed = 0;
  let failed: number | undefined;
  for (let rate: number | undefined = start; rate !== undefined; rate = nextRate(passed, failed)) {
    const result = await probe(rate, false);
    probes.push(result);
    if (result.passed) passed = rate;
    else failed = rate;
  }
  return { ...(await confirm(probe, passed, probes)), probes };
}

async function confirm(probe: (rate: number, full: boolean) => Promise<Probe>, found: number, probes: Probe[]) {
  if (found === 0)
    return { rate: 0, confirmed: false, note: `no rate held, down to ${probes.at(-1)?.rate ?? 1} req/s` };
  let rate = found;
  for (let stepDown = 0; stepDown <= MAX_STEP_DOWNS; stepDown++) {
    const result = { ...(await probe(rate, true)), confirmation: true };
    probes.push(result);
    if (result.passed) {
      const note =
        rate < found
          ? `the probes found ${found} req/s, which did not hold over a full-length run; stepped down to ${rate}`
          : undefined;
      return { rate, confirmed: true, ...(note ? { note } : {}) };
    }
    rate = Math.max(1, Math.floor(rate * (1 - RESOLUTION)));
  }
  return {
    rate: 0,
    confirmed: false,
    note: `the probes found ${found} req/s, but no full-length run held down to ${rate} req/s`,
  };
}

/** Half the target's median maximum throughput when it was measured (one doubling reaches it), else START_RATE. */
export function startRate(cells: readonly CellResult[], target: string, connections: number): number {
  const rps = cells
    .filter((c) => c.target === target && c.connections === connections && !c.failure && !c.discarded && !c.rate)
    .map((c) => c.outcome?.requestsPerSecond ?? 0)
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
  const median = rps[Math.floor(rps.length / 2)];
  return median ? Math.max(1, Math.round(median / 2)) : START_RATE;
}

/** Capacity of each target at one connection count: probes are short fixed-rate cells, confirmed at full length. */
export async function runCapacity(
  plan: ScenarioPlan,
  runnable: LiveTarget[],
  connections: number,
  slo: Slo,
  ctx: ScenarioRunContext,
  throughputCells: readonly CellResult[] = [],
) {
  const cells: CellResult[] = [];
  const results: CapacityResult[] = [];
  const probeS = ctx.options.smoke ? plan.durationS : Math.min(2, plan.durationS);
  for (const target of runnable) {
    let probesRun = 0;
    const probe = async (rate: number, full: boolean) => {
      if (++probesRun > PLANNED_PROBES + 1) ctx.counter.total++;
      const state = startState(plan, target.name, connections, probesRun, ctx);
      const spec = {
        scenario: plan.name,
        target,
        connections,
        repeat: probesRun,
        position: 1,
        rate,
        warmupS: full ? plan.warmupS : 0,
        durationS: full ? plan.durationS : probeS,
      };
      const cell = await measureCell(spec, ctx, state);
      cells.push(cell);
      finishState(state, cell, plan, ctx);
      const result = judgeProbe(cell, slo, rate);
      const verdict = result.why
        ? `does not hold: ${result.why}`
        : `holds (p${slo.percentile} ${result.latencyMs.toFixed(1)} ms)`;
      ctx.io.log(
        `${plan.name} on ${target.name} ${sloLabel(slo)}: ${full ? "confirming" : "probe"} ${rate} req/s → ${verdict}`,
      );
      return result;
    };
    const found = await searchCapacity(probe, startRate(throughputCells, target.name, connections));
    ctx.counter.total -= Math.max(0, PLANNED_PROBES + 1 - probesRun);
    ctx.counter.total = Math.max(ctx.counter.total, ctx.counter.cell);
    results.push({ scenario: plan.name, target: target.name, connections, slo, resolution: RESOLUTION, ...found });
    const capacity = `${found.confirmed ? `${found.rate} req/s` : "none"}${found.note ? ` (${found.note})` : ""}`;
    ctx.io.log(`${plan.name} on ${target.name}: capacity at ${sloLabel(slo)} ${capacity}`);
  }
  return { cells, results };
}
