// The report's part for --profile: per target and scenario, the share of the server's CPU samples by layer, the
// top self-time functions, and the flame graph (inline SVG, drawn when the results were made).

import { LAYER_COLOURS } from "../profile/flame.ts";
import { LAYERS } from "../profile/layers.ts";
import type { Results } from "../results/schema.ts";
import { esc } from "./format.ts";

const pct = (share: number) => `${(100 * share).toFixed(1)}%`;
const where = (url: string, line: number) =>
  url
    ? `${url
        .replace(/^file:\/\//, "")
        .replace(/.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, "")
        .replace(/.*\/(apps|packages|bench)\//, "$1/")}:${line}`
    : "(native)";

export function profilesMarkdown(r: Results): string[] {
  if (!r.profiles?.length) return [];
  const lines = [
    "## Where the time goes (--profile)",
    "",
    "Share of the server's CPU samples by layer (self time: the function running when sampled), over every measured " +
      "cell of the target and scenario; the figures above were measured with the sampler on. " +
      "Flame graphs are in report.html, each cell's profile under `profiles/`.",
    "",
    `| target | scenario | samples | ${LAYERS.join(" | ")} |`,
    `|---|---|---:|${LAYERS.map(() => "---:").join("|")}|`,
  ];
  for (const p of r.profiles) {
    if (p.missing)
      lines.push(
        `| ${p.target} | ${p.scenario} | — | ${p.missing} |${LAYERS.slice(1)
          .map(() => "")
          .join(" |")} |`,
      );
    else
      lines.push(`| ${p.target} | ${p.scenario} | ${p.samples} | ${p.layers.map((l) => pct(l.share)).join(" | ")} |`);
  }
  lines.push("");
  for (const p of r.profiles.filter((x) => !x.missing)) {
    lines.push(
      `Top self time, ${p.target} · ${p.scenario}:`,
      "",
      "| function | where | layer | self |",
      "|---|---|---|---:|",
    );
    for (const f of p.top.slice(0, 10))
      lines.push(`| \`${f.name}\` | ${where(f.url, f.line)} | ${f.layer} | ${pct(f.selfShare)} |`);
    lines.push("");
  }
  return lines;
}

export function profilesHtml(r: Results): string {
  if (!r.profiles?.length) return "";
  const chip = "display:inline-block;padding:0 6px;margin-right:4px";
  const legend = LAYERS.map((l) => `<span style="${chip};background:${LAYER_COLOURS[l]}">${esc(l)}</span>`).join("");
  const sections = r.profiles.map((p) => {
    const head = `<h3>${esc(p.target)} · ${esc(p.scenario)}</h3>`;
    if (p.missing) return `${head}<p>${esc(p.missing)}</p>`;
    const names = p.layers.map((l) => `<th>${esc(l.layer)}</th>`).join("");
    const layers = `<table><tr>${names}</tr><tr>${p.layers.map((l) => `<td>${pct(l.share)}</td>`).join("")}</tr></table>`;
    const topRow = (f: (typeof p.top)[number]) =>
      `<tr><td><code>${esc(f.name)}</code></td><td>${esc(where(f.url, f.line))}</td>` +
      `<td>${esc(f.layer)}</td><td>${pct(f.selfShare)}</td></tr>`;
    const topRows = p.top.slice(0, 10).map(topRow).join("");
    const top = `<table><tr><th>function</th><th>where</th><th>layer</th><th>self</th></tr>${topRows}</table>`;
    const samples = `<p>${p.samples} samples over ${p.files.length} cell(s).</p>`;
    return `${head}${samples}${layers}${p.flame ?? ""}<details><summary>Top self time</summary>${top}</details>`;
  });
  const about =
    "Flame graphs of the server's CPU over the measured cells (callers above callees; width = share of samples; " +
    `hover for a frame's name, file and share). Colours are layers: ${legend}`;
  return `<section id="profiles"><h2>Where the time goes (--profile)</h2><p>${about}</p>${sections.join("")}</section>`;
}
