// "Claimed vs measured here": one row per published figure (per framework compared), the article's ratio, ours
// from the same run with its 95% interval, the verdict and the likely reason. Pure over results.json.

import { countedCells } from "../analysis/ratios.ts";
import { esc, escapeCell } from "../report/format.ts";
import type { CellResult, Results } from "../results/schema.ts";
import type { ScenarioName } from "../scenarios/catalog.ts";
import { type Interval, pairedInterval } from "../stats.ts";
import type { FigureValues, Preset, PublishedClaim } from "./presets.ts";
import { type Verdict, verdictOf, WIDE } from "./verdict.ts";

export interface ClaimRow {
  figure: string;
  /** "fastify ÷ express (fastify-zod ÷ express)". */
  comparison: string;
  claimed: { text: string; ratio: number };
  measured: { text: string; ratio: Interval | undefined };
  verdict: Verdict;
  /** Why it may not hold, from what the run recorded; or why it is not measured. */
  reasons: string[];
}

export interface ClaimsTable {
  id: string;
  article: string;
  claim: string;
  rows: ClaimRow[];
}

const REFERENCE = "express";
const NONE: Interval = { value: Number.NaN, low: Number.NaN, high: Number.NaN, halfWidth: Number.NaN, n: 0 };

type Metric = "rps" | "p50" | "p95" | "p99" | "rss" | "cpu" | "startup" | "seconds" | "latency-speedup" | "error-rate";

/** What a figure name means here, or why it is not measured. */
export function metricOf(figure: string): Metric | { notMeasured: string } {
  if (figure.includes("rps")) return "rps";
  if (figure.startsWith("p50")) return "p50";
  if (figure.startsWith("p95")) return "p95";
  if (figure.startsWith("p99")) return "p99";
  if (figure.includes("memory")) return "rss";
  if (figure.includes("cpu")) return "cpu";
  if (figure.startsWith("startup")) return "startup";
  if (figure.startsWith("seconds_for")) return "seconds";
  if (figure.startsWith("median_latency_diff")) return "latency-speedup";
  if (figure.startsWith("error_rate")) return "error-rate";
  return { notMeasured: `no figure of the harness corresponds to "${figure}"` };
}

const pick: Record<"rps" | "p50" | "p95" | "p99" | "rss" | "cpu" | "startup", (c: CellResult) => number | undefined> = {
  rps: (c) => c.outcome?.requestsPerSecond,
  p50: (c) => c.outcome?.latency.p50,
  p95: (c) => c.outcome?.latency.p95,
  p99: (c) => c.outcome?.latency.p99,
  rss: (c) => c.server?.peakRssBytes,
  cpu: (c) => c.server?.cpuCores,
  // --restart cell: each cell's fresh process's start-up.
  startup: (c) => c.startupMs,
};

/** The measured cells: the throughput cells, or a ramp's steps (a --rate list runs those instead). */
const measuredCells = (r: Results) => (r.cells.length > 0 ? r.cells : (r.curve ?? []));

/**
 * Per repeat, the geometric mean of a figure over several scenarios (one value per repeat every scenario has);
 * a scenario with several cells in one repeat (the steps of a fixed-rate ramp) counts once, by their geometric mean.
 */
function perRepeat(
  r: Results,
  scenarios: ScenarioName[],
  connections: number | undefined,
  target: string,
  metric: keyof typeof pick,
) {
  const byRepeat = new Map<number, number[]>();
  for (const scenario of scenarios) {
    const counts = [
      ...new Set(
        measuredCells(r)
          .filter((c) => c.scenario === scenario)
          .map((c) => c.connections),
      ),
    ];
    const conn = connections !== undefined && counts.includes(connections) ? connections : counts[0];
    if (conn === undefined) continue;
    const logs = new Map<number, number[]>();
    for (const cell of countedCells(measuredCells(r), scenario, conn, target)) {
      if (cell.failure) continue;
      const v = pick[metric](cell);
      if (v === undefined || !Number.isFinite(v) || v <= 0) continue;
      logs.set(cell.repeat, [...(logs.get(cell.repeat) ?? []), Math.log(v)]);
    }
    for (const [repeat, values] of logs) {
      byRepeat.set(repeat, [...(byRepeat.get(repeat) ?? []), values.reduce((a, b) => a + b, 0) / values.length]);
    }
  }
  return new Map(
    [...byRepeat.entries()]
      .filter(([, logs]) => logs.length === scenarios.length)
      .sort(([a], [b]) => a - b)
      .map(([repeat, logs]) => [repeat, Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length)] as const),
  );
}

/** a ÷ b of one figure, paired by repeat, with its 95% interval. */
function pairedRatio(a: Map<number, number>, b: Map<number, number>): Interval {
  const values: number[] = [];
  const bases: number[] = [];
  for (const [repeat, v] of a) {
    const w = b.get(repeat);
    if (w === undefined) continue;
    values.push(v);
    bases.push(w);
  }
  return values.length > 0 ? pairedInterval(values, bases) : NONE;
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return "–";
  if (n >= 100) return Math.round(n).toLocaleString("en-US");
  return n >= 10 ? n.toFixed(1) : n.toFixed(2);
}
export const formatInterval = (i: Interval | undefined) =>
  !i || !Number.isFinite(i.value)
    ? "–"
    : `${fmt(i.value)}×${Number.isFinite(i.low) ? ` [${fmt(i.low)}–${fmt(i.high)}]` : " (one pair: no interval)"}`;

/** Which scenarios a figure of a claim is measured on (the preset's, narrowed by the figure's name). */
function scenariosOf(preset: Preset, figure: string, sub?: string): ScenarioName[] {
  const all = [...new Set(Object.values(preset.routes))];
  if (figure.startsWith("orders_include")) return ["orders-list"];
  if (figure.startsWith("json")) return ["echo"];
  if (figure.startsWith("hello")) return ["hello"];
  if (sub?.startsWith("/")) {
    const route = Object.entries(preset.routes).find(([r]) => r.endsWith(` ${sub}`) || r === sub);
    return route ? [route[1]] : [];
  }
  return all;
}

/** Why a comparison may not hold, from what the run recorded. */
function reasonsOf(r: Results, claim: PublishedClaim, scenarios: ScenarioName[], targets: string[], metric: Metric) {
  const reasons: string[] = [];
  const rows = r.summary.filter((s) => scenarios.includes(s.scenario) && targets.includes(s.target));
  if (rows.some((s) => s.loadGeneratorSaturated) && (metric === "rps" || metric === "seconds")) {
    reasons.push("load generator saturated: requests/s is its limit, not the servers' (see CPU per request)");
  }
  const throughputOrLatency = ["rps", "seconds", "p50", "p95", "p99", "latency-speedup"].includes(metric);
  for (const target of throughputOrLatency ? targets : []) {
    const split = r.split.filter((s) => scenarios.includes(s.scenario) && s.target === target);
    const worst = Math.min(...split.map((s) => s.dataAccess.value));
    if (split.length > 0 && worst < 0.5) {
      const reach = `the data access alone reaches ${Math.round(worst * 100)}% of the raw baseline's throughput`;
      reasons.push(
        `data-access cost dominating: ${reach} (framework × data-access split), which dilutes any framework difference`,
      );
      break;
    }
  }
  const versions = claim.setup.versions ?? "";
  const express = r.targets.find((t) => t.name === "express")?.versions.express;
  if (targets.includes("express") && express) {
    // A preset whose article names Express 4 measures express4 (presets.ts): this is for one that did not.
    if (/Express 4/.test(versions)) reasons.push(`Express 4 in the article, Express ${express} here`);
    else if (!/Express \d/.test(versions)) {
      reasons.push(
        `the article does not say which Express it ran; Express ${express} here (Express 4: the express4 row)`,
      );
    }
  }
  // results.json records an unset rate as null.
  const o = r.options as { rate?: number | null; rates?: number[] | null };
  if (
    /fixed rate|arrival rate|-R\d/i.test(claim.setup.load ?? "") &&
    (o.rate ?? undefined) === undefined &&
    !o.rates?.length
  ) {
    reasons.push("the article measured at a fixed rate; this run at max throughput");
  }
  if (rows.some((s) => s.status === "failed")) reasons.push("some cells failed (see the report above)");
  reasons.push(`runtime: Node ${r.versions.node ?? "?"} here; the article's runtime version is not published`);
  return reasons;
}

/** One group of a figure's values: {framework: n}, or one connection count's or route's of them, or a number. */
interface Group {
  sub?: string;
  values: Record<string, number> | number;
}

/** A figure group being read: the run, its claim and preset, and where and in what the figure is measured. */
interface FigureAt {
  r: Results;
  claim: PublishedClaim;
  preset: Preset;
  label: string;
  metric: Metric;
  values: Group["values"];
  scenarios: ScenarioName[];
  connections: number | undefined;
  connectionsRun: number[];
}

/** The claims table of one preset's run. */
export function claimsTable(r: Results, claim: PublishedClaim, preset: Preset): ClaimsTable {
  const connectionsRun = [...new Set(measuredCells(r).map((c) => c.connections))];
  const rows = Object.entries(claim.figures).flatMap(([figure, value]) => {
    const metric = metricOf(figure);
    return groupsOf(value, metric).flatMap((group): ClaimRow[] => {
      const label = group.sub ? `${figure} (${group.sub})` : figure;
      if (typeof metric !== "string") return [notMeasuredRow(label, group, metric.notMeasured)];
      const scenarios = scenariosOf(preset, figure, group.sub);
      if (metric === "error-rate") return [errorRateRow(r, label, scenarios, group.values as number)];
      const connections = group.sub && /^\d+$/.test(group.sub) ? Number(group.sub) : undefined;
      const at = { r, claim, preset, label, metric, values: group.values, scenarios, connections, connectionsRun };
      return comparisonRows(at);
    });
  });
  return { id: claim.id, article: claim.article, claim: claim.claim, rows };
}

/** The figure's values: {framework: n}, {connections: {framework: n}}, {route: n} or a plain number. */
function groupsOf(value: number | FigureValues, metric: ReturnType<typeof metricOf>): Group[] {
  if (typeof value === "number") return [{ values: value }];
  if (Object.values(value).every((v) => typeof v === "number")) {
    if (metric !== "latency-speedup") return [{ values: value as Record<string, number> }];
    return Object.entries(value).map(([route, v]) => ({ sub: route, values: v as number }));
  }
  return Object.entries(value as Record<string, FigureValues>).map(([sub, v]) => ({
    sub,
    values: v as Record<string, number>,
  }));
}

function notMeasuredRow(label: string, group: Group, why: string): ClaimRow {
  return {
    figure: label,
    comparison: "–",
    claimed: { text: JSON.stringify(group.values), ratio: Number.NaN },
    measured: { text: "not measured here", ratio: undefined },
    verdict: "not measured here",
    reasons: [why],
  };
}

/** An error-rate figure: the share of non-2xx answers and socket errors over every implementation's cells. */
function errorRateRow(r: Results, label: string, scenarios: ScenarioName[], claimed: number): ClaimRow {
  const implementations = new Set(r.targets.filter((t) => t.role === "implementation").map((t) => t.name));
  const these = measuredCells(r).filter(
    (c) => scenarios.includes(c.scenario) && implementations.has(c.target) && !c.discarded,
  );
  const completed = these.reduce((n, c) => n + (c.outcome?.completed ?? 0), 0);
  const bad = these.reduce((n, c) => n + (c.outcome ? c.outcome.non2xx + c.outcome.errors : 0), 0);
  const rate = completed > 0 ? (100 * bad) / completed : Number.NaN;
  const verdict = errorRateVerdict(rate, claimed);
  return {
    figure: label,
    comparison: "every implementation",
    claimed: { text: `${claimed}%`, ratio: Number.NaN },
    measured: { text: Number.isFinite(rate) ? `${rate.toFixed(2)}%` : "–", ratio: undefined },
    verdict,
    reasons: verdict === "holds" ? [] : ["non-2xx answers or socket errors were counted (see the report above)"],
  };
}

function errorRateVerdict(rate: number, claimed: number): Verdict {
  if (!Number.isFinite(rate)) return "not measured here";
  return rate <= claimed + 0.1 ? "holds" : "does not hold";
}

/** The pairs a figure compares, each [framework, reference, the article's ratio, the framework's own figure]. */
function pairsOf(metric: Metric, values: Group["values"]): Array<[string, string, number, number]> {
  if (metric === "latency-speedup") {
    // "Fastify vs Express, %": the article's text reads it as Fastify's speed-up, Express's latency ÷ Fastify's − 1.
    return [["fastify", REFERENCE, 1 + (values as number) / 100, Number.NaN]];
  }
  const byFramework = values as Record<string, number>;
  const ref = byFramework[REFERENCE];
  if (ref === undefined) return [];
  return Object.entries(byFramework)
    .filter(([fw]) => fw !== REFERENCE)
    .map(([fw, v]) => [fw, REFERENCE, v / ref, v]);
}

/** One row per compared pair and per implementation of the preset that stands for the framework. */
function comparisonRows(at: FigureAt): ClaimRow[] {
  return pairsOf(at.metric, at.values).flatMap(([fw, refFw, claimedRatio, claimedValue]) => {
    const ours = at.preset.frameworks[fw] ?? [];
    const refOurs = at.preset.frameworks[refFw]?.[0] ?? refFw;
    const refValue = fmt((at.values as Record<string, number>)[refFw] as number);
    const claimedText =
      at.metric === "latency-speedup"
        ? `${at.values}% → ${fmt(claimedRatio)}×`
        : `${fmt(claimedValue)} ÷ ${refValue} = ${fmt(claimedRatio)}×`;
    return (ours.length > 0 ? ours : [fw]).map((impl) => {
      const named = impl !== fw || refOurs !== refFw ? ` (${impl} ÷ ${refOurs})` : "";
      const { measured, extra } = measuredRatio(at, impl, refOurs);
      const verdict = verdictOf(claimedRatio, measured);
      return {
        figure: at.label,
        comparison: `${fw} ÷ ${refFw}${named}`,
        claimed: { text: claimedText, ratio: claimedRatio },
        measured: { text: formatInterval(measured), ratio: measured },
        verdict,
        reasons: reasonsFor(at, impl, refOurs, claimedRatio, measured, verdict, extra),
      };
    });
  });
}

/** Our ratio of impl to its reference in the figure's metric, and what to say of how it was had. */
function measuredRatio(at: FigureAt, impl: string, refOurs: string): { measured: Interval; extra: string[] } {
  const { r, scenarios, connections, metric } = at;
  const of = (target: string, m: keyof typeof pick) => perRepeat(r, scenarios, connections, target, m);
  if (metric === "startup") return startupRatio(r, impl, refOurs);
  // Seconds for N requests = N ÷ requests/s: the ratio of seconds is the inverse ratio of requests/s.
  if (metric === "seconds") return { measured: pairedRatio(of(refOurs, "rps"), of(impl, "rps")), extra: [] };
  if (metric === "latency-speedup") return { measured: pairedRatio(of(refOurs, "p50"), of(impl, "p50")), extra: [] };
  const figure = metric as keyof typeof pick;
  return { measured: pairedRatio(of(impl, figure), of(refOurs, figure)), extra: [] };
}

/**
 * Start-up: with --restart cell every cell started its server anew, and those, paired by repeat, give an interval;
 * otherwise each server started once: one figure, no interval.
 */
function startupRatio(r: Results, impl: string, refOurs: string): { measured: Interval; extra: string[] } {
  const everyScenario = [...new Set(measuredCells(r).map((c) => c.scenario))];
  const of = (target: string) => perRepeat(r, everyScenario, undefined, target, "startup");
  const measured = pairedRatio(of(impl), of(refOurs));
  if (measured.n > 0) return { measured, extra: [] };
  const a = r.targets.find((t) => t.name === impl)?.startupMs;
  const b = r.targets.find((t) => t.name === refOurs)?.startupMs;
  const once = a !== undefined && b !== undefined && b > 0 ? { ...NONE, value: a / b, n: 1 } : measured;
  return { measured: once, extra: ["one start-up per implementation: no interval"] };
}

const ONE_PAIR =
  "one pair of figures (one repeat, or a ramp's one run per step): no interval, so no verdict against the article";

/** A row's reasons: what the interval lets one say, then why it may not hold (or why it was not measured). */
function reasonsFor(
  at: FigureAt,
  impl: string,
  refOurs: string,
  claimedRatio: number,
  measured: Interval,
  verdict: Verdict,
  extra: string[],
): string[] {
  const notes = [...extra];
  if (at.connections !== undefined && !at.connectionsRun.includes(at.connections)) {
    notes.push(`not run at ${at.connections} connections (${at.connectionsRun.join("/")} here)`);
  }
  if (verdict !== "holds" && measured.halfWidth > WIDE) {
    notes.push(`the 95% interval is ±${Math.round(measured.halfWidth * 100)}%: too few or too short repeats to tell`);
  }
  const unsure = verdict === "can't tell";
  if (unsure && !Number.isFinite(measured.low) && at.metric !== "startup") notes.push(ONE_PAIR);
  if (unsure && measured.low <= claimedRatio && claimedRatio <= measured.high) {
    notes.push("the 95% interval contains both the article's ratio and 1 (no difference)");
  }
  if (verdict === "holds") return notes;
  if (verdict === "not measured here") {
    return [...notes, `no ${impl} or ${refOurs} figures in this run (not run, or failed)`];
  }
  return [...notes, ...reasonsOf(at.r, at.claim, at.scenarios, [impl, refOurs], at.metric)];
}

const OURS = "ours is the geometric mean of repeats paired by repeat, with its 95% interval";
const HEAD = ["figure", "compared", "claimed", "measured here", "verdict", "likely reason"];

/** The "claimed vs measured here" section, in markdown. */
export function claimsMarkdown(table: ClaimsTable, preset: Preset, level = 2): string[] {
  const h = "#".repeat(level);
  const lines = [`${h} Claimed vs measured here — ${table.article}`, ""];
  lines.push(`The article: “${table.claim}” (preset \`${table.id}\`).`, "");
  lines.push("Changed from the article's setup:", "", ...preset.changes.map((c) => `- ${c}`), "");
  lines.push(`Ratios are the first framework's figure over the second's (above 1: higher figure); ${OURS}.`, "");
  lines.push("| figure | compared | claimed | measured here | verdict | likely reason |", "|---|---|--:|--:|---|---|");
  for (const row of table.rows) {
    const [figure, comparison, claimed, measured] = [row.figure, row.comparison, row.claimed.text, row.measured.text];
    const cells = [figure, comparison, claimed, measured].map(escapeCell);
    lines.push(`| ${cells.join(" | ")} | **${row.verdict}** | ${escapeCell(row.reasons.join("; ") || "–")} |`);
  }
  lines.push("");
  return lines;
}

/** The same section in HTML, to be placed before </body> of report.html or on the claims page. */
export function claimsHtml(table: ClaimsTable, preset: Preset): string {
  const td = (text: string, figure = false) => `<td${figure ? ' class="n"' : ""}>${esc(text)}</td>`;
  const rows = table.rows
    .map((row) => {
      const verdict = `<td><strong>${esc(row.verdict)}</strong></td>`;
      const names = td(row.figure) + td(row.comparison);
      const figures = td(row.claimed.text, true) + td(row.measured.text, true);
      return `<tr>${names}${figures}${verdict}${td(row.reasons.join("; ") || "–")}</tr>`;
    })
    .join("");
  const heading = `<h2>Claimed vs measured here <small>${esc(table.article)}</small></h2>`;
  const article = `<p>The article: “${esc(table.claim)}” (preset <code>${esc(table.id)}</code>).</p>`;
  const changes = `<ul>${preset.changes.map((c) => `<li>${esc(c)}</li>`).join("")}</ul>`;
  const note = `<p class="note">Ratios are the first framework's figure over the second's; ${OURS}.</p>`;
  const head = HEAD.map((h) => `<th>${h}</th>`).join("");
  const tableHtml = `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
  const body = `${heading}${article}<p>Changed from the article's setup:</p>${changes}${note}${tableHtml}`;
  return `<section class="claims" id="claims-${esc(table.id)}">${body}</section>`;
}
