// "Claimed vs measured here": one row per published figure (per framework compared), the article's ratio, ours
// from the same run with its 95% interval, the verdict and the likely reason. Pure over results.json.

import { esc, escapeCell } from "../report/format.ts";
import { type CellResult, countedCells, type Results } from "../results.ts";
import type { ScenarioName } from "../scenarios.ts";
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

const fmt = (n: number) =>
  !Number.isFinite(n) ? "–" : n >= 100 ? Math.round(n).toLocaleString("en-US") : n >= 10 ? n.toFixed(1) : n.toFixed(2);
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
      reasons.push(
        `data-access cost dominating: the data access alone reaches ${Math.round(worst * 100)}% of the raw baseline's throughput (framework × data-access split), which dilutes any framework difference`,
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

/** The claims table of one preset's run. */
export function claimsTable(r: Results, claim: PublishedClaim, preset: Preset): ClaimsTable {
  const rows: ClaimRow[] = [];
  const connectionsRun = [...new Set(measuredCells(r).map((c) => c.connections))];
  for (const [figure, value] of Object.entries(claim.figures)) {
    const metric = metricOf(figure);
    // The figure's values: {framework: n}, {connections: {framework: n}}, {route: n} or a plain number.
    const groups: Array<{ sub?: string; values: Record<string, number> | number }> = [];
    if (typeof value === "number") groups.push({ values: value });
    else if (Object.values(value).every((v) => typeof v === "number")) {
      if (metric === "latency-speedup") {
        for (const [route, v] of Object.entries(value)) groups.push({ sub: route, values: v as number });
      } else groups.push({ values: value as Record<string, number> });
    } else {
      for (const [sub, v] of Object.entries(value as Record<string, FigureValues>)) {
        groups.push({ sub, values: v as Record<string, number> });
      }
    }
    for (const group of groups) {
      const label = group.sub ? `${figure} (${group.sub})` : figure;
      if (typeof metric !== "string") {
        rows.push({
          figure: label,
          comparison: "–",
          claimed: { text: JSON.stringify(group.values), ratio: Number.NaN },
          measured: { text: "not measured here", ratio: undefined },
          verdict: "not measured here",
          reasons: [metric.notMeasured],
        });
        continue;
      }
      const connections = group.sub && /^\d+$/.test(group.sub) ? Number(group.sub) : undefined;
      const scenarios = scenariosOf(preset, figure, group.sub);
      if (metric === "error-rate") {
        const implementations = new Set(r.targets.filter((t) => t.role === "implementation").map((t) => t.name));
        const these = measuredCells(r).filter(
          (c) => scenarios.includes(c.scenario) && implementations.has(c.target) && !c.discarded,
        );
        const completed = these.reduce((n, c) => n + (c.outcome?.completed ?? 0), 0);
        const bad = these.reduce((n, c) => n + (c.outcome ? c.outcome.non2xx + c.outcome.errors : 0), 0);
        const rate = completed > 0 ? (100 * bad) / completed : Number.NaN;
        const verdict: Verdict = !Number.isFinite(rate)
          ? "not measured here"
          : rate <= (group.values as number) + 0.1
            ? "holds"
            : "does not hold";
        rows.push({
          figure: label,
          comparison: "every implementation",
          claimed: { text: `${group.values}%`, ratio: Number.NaN },
          measured: { text: Number.isFinite(rate) ? `${rate.toFixed(2)}%` : "–", ratio: undefined },
          verdict,
          reasons: verdict === "holds" ? [] : ["non-2xx answers or socket errors were counted (see the report above)"],
        });
        continue;
      }
      const compare: Array<[string, string, number, number]> = [];
      if (metric === "latency-speedup") {
        // "Fastify vs Express, %": the article's text reads it as Fastify's speed-up, Express's latency ÷ Fastify's − 1.
        compare.push(["fastify", REFERENCE, 1 + (group.values as number) / 100, Number.NaN]);
      } else {
        const values = group.values as Record<string, number>;
        const ref = values[REFERENCE];
        for (const [fw, v] of Object.entries(values)) {
          if (fw === REFERENCE || ref === undefined) continue;
          compare.push([fw, REFERENCE, v / ref, v]);
        }
      }
      for (const [fw, refFw, claimedRatio, claimedValue] of compare) {
        const ours = preset.frameworks[fw] ?? [];
        const refOurs = preset.frameworks[refFw]?.[0] ?? refFw;
        const claimedText =
          metric === "latency-speedup"
            ? `${group.values}% → ${fmt(claimedRatio)}×`
            : `${fmt(claimedValue)} ÷ ${fmt((group.values as Record<string, number>)[refFw] as number)} = ${fmt(claimedRatio)}×`;
        for (const impl of ours.length > 0 ? ours : [fw]) {
          const comparison = `${fw} ÷ ${refFw}${impl !== fw || refOurs !== refFw ? ` (${impl} ÷ ${refOurs})` : ""}`;
          let measured: Interval = NONE;
          const extra: string[] = [];
          if (metric === "startup") {
            // With --restart cell every cell started its server anew: those start-ups, paired by repeat, give an
            // interval. Otherwise each server started once: one figure, no interval.
            const everyScenario = [...new Set(measuredCells(r).map((c) => c.scenario))];
            measured = pairedRatio(
              perRepeat(r, everyScenario, undefined, impl, "startup"),
              perRepeat(r, everyScenario, undefined, refOurs, "startup"),
            );
            if (measured.n === 0) {
              const a = r.targets.find((t) => t.name === impl)?.startupMs;
              const b = r.targets.find((t) => t.name === refOurs)?.startupMs;
              if (a !== undefined && b !== undefined && b > 0) measured = { ...NONE, value: a / b, n: 1 };
              extra.push("one start-up per implementation: no interval");
            }
          } else if (metric === "seconds") {
            // Seconds for N requests = N ÷ requests/s: the ratio of seconds is the inverse ratio of requests/s.
            measured = pairedRatio(
              perRepeat(r, scenarios, connections, refOurs, "rps"),
              perRepeat(r, scenarios, connections, impl, "rps"),
            );
          } else if (metric === "latency-speedup") {
            measured = pairedRatio(
              perRepeat(r, scenarios, connections, refOurs, "p50"),
              perRepeat(r, scenarios, connections, impl, "p50"),
            );
          } else {
            measured = pairedRatio(
              perRepeat(r, scenarios, connections, impl, metric),
              perRepeat(r, scenarios, connections, refOurs, metric),
            );
          }
          if (connections !== undefined && !connectionsRun.includes(connections)) {
            extra.push(`not run at ${connections} connections (${connectionsRun.join("/")} here)`);
          }
          const verdict = verdictOf(claimedRatio, measured);
          if (verdict !== "holds" && measured.halfWidth > WIDE) {
            extra.push(
              `the 95% interval is ±${Math.round(measured.halfWidth * 100)}%: too few or too short repeats to tell`,
            );
          }
          if (verdict === "can't tell" && !Number.isFinite(measured.low) && metric !== "startup") {
            extra.push(
              "one pair of figures (one repeat, or a ramp's one run per step): no interval, so no verdict against the article",
            );
          }
          if (verdict === "can't tell" && measured.low <= claimedRatio && claimedRatio <= measured.high) {
            extra.push("the 95% interval contains both the article's ratio and 1 (no difference)");
          }
          const reasons =
            verdict === "holds"
              ? extra
              : verdict === "not measured here"
                ? [...extra, `no ${impl} or ${refOurs} figures in this run (not run, or failed)`]
                : [...extra, ...reasonsOf(r, claim, scenarios, [impl, refOurs], metric)];
          rows.push({
            figure: label,
            comparison,
            claimed: { text: claimedText, ratio: claimedRatio },
            measured: { text: formatInterval(measured), ratio: measured },
            verdict,
            reasons,
          });
        }
      }
    }
  }
  return { id: claim.id, article: claim.article, claim: claim.claim, rows };
}

/** The "claimed vs measured here" section, in markdown. */
export function claimsMarkdown(table: ClaimsTable, preset: Preset, level = 2): string[] {
  const h = "#".repeat(level);
  const lines = [`${h} Claimed vs measured here — ${table.article}`, ""];
  lines.push(`The article: “${table.claim}” (preset \`${table.id}\`).`, "");
  lines.push("Changed from the article's setup:", "", ...preset.changes.map((c) => `- ${c}`), "");
  lines.push(
    "Ratios are the first framework's figure over the second's (above 1: higher figure); ours is the geometric mean of repeats paired by repeat, with its 95% interval.",
    "",
  );
  lines.push("| figure | compared | claimed | measured here | verdict | likely reason |", "|---|---|--:|--:|---|---|");
  for (const row of table.rows) {
    lines.push(
      `| ${escapeCell(row.figure)} | ${escapeCell(row.comparison)} | ${escapeCell(row.claimed.text)} | ${escapeCell(row.measured.text)} | **${row.verdict}** | ${escapeCell(row.reasons.join("; ") || "–")} |`,
    );
  }
  lines.push("");
  return lines;
}

/** The same section in HTML, to be placed before </body> of report.html or on the claims page. */
export function claimsHtml(table: ClaimsTable, preset: Preset): string {
  const rows = table.rows
    .map(
      (row) =>
        `<tr><td>${esc(row.figure)}</td><td>${esc(row.comparison)}</td><td class="n">${esc(row.claimed.text)}</td><td class="n">${esc(row.measured.text)}</td><td><strong>${esc(row.verdict)}</strong></td><td>${esc(row.reasons.join("; ") || "–")}</td></tr>`,
    )
    .join("");
  return `<section class="claims" id="claims-${esc(table.id)}"><h2>Claimed vs measured here <small>${esc(table.article)}</small></h2><p>The article: “${esc(table.claim)}” (preset <code>${esc(table.id)}</code>).</p><p>Changed from the article's setup:</p><ul>${preset.changes.map((c) => `<li>${esc(c)}</li>`).join("")}</ul><p class="note">Ratios are the first framework's figure over the second's; ours is the geometric mean of repeats paired by repeat, with its 95% interval.</p><table><thead><tr><th>figure</th><th>compared</th><th>claimed</th><th>measured here</th><th>verdict</th><th>likely reason</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
