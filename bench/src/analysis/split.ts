// The framework × data-access split of a database scenario's figures (see SplitRow).
import { layerKey } from "../results/runtime.ts";
import type { CellResult, ScenarioInfo, SplitRow, SummaryRow, TargetInfo } from "../results/schema.ts";
import { countedCells, headlineOf, ratioIn, ratiosOf } from "./ratios.ts";

/** The framework / data-access split of every implementation on every database scenario that has a layer for it. */
export function splitCosts(
  scenarioInfos: ScenarioInfo[],
  targets: TargetInfo[],
  summary: SummaryRow[],
  cells: CellResult[],
): SplitRow[] {
  const split: SplitRow[] = [];
  for (const scenario of scenarioInfos) {
    if (!scenario.layers) continue;
    for (const row of summary) {
      if (row.scenario !== scenario.name || row.role !== "implementation" || row.status !== "ok") continue;
      const target = targets.find((t) => t.name === row.target);
      const layer = target ? scenario.layers[layerKey(target)] : undefined;
      const layerRow = summary.find(
        (s) => s.scenario === scenario.name && s.connections === row.connections && s.target === layer,
      );
      if (!layer || layerRow?.status !== "ok") continue;
      split.push(splitRowOf(scenario, row, layer, layerRow, cells));
    }
  }
  return split;
}

function splitRowOf(
  scenario: ScenarioInfo,
  row: SummaryRow,
  layer: string,
  layerRow: SummaryRow,
  cells: CellResult[],
): SplitRow {
  const of = (target: string) => countedCells(cells, scenario.name, row.connections, target);
  const framework = ratiosOf(of(row.target), of(layer));
  // Within one runtime: the limit is the row's own runtime's (bun-http-pg for Bun rows), where it has one.
  const own = row.runtimeBaseline !== undefined && row.runtimeBaseline === layerRow.runtimeBaseline;
  const limit = own ? (row.runtimeBaseline as string) : scenario.baseline;
  const headline = headlineOf(of(row.target), [...of(layer), ...of(limit)], row.rpsRatio, row.cpuRatio);
  return {
    scenario: scenario.name,
    connections: row.connections,
    target: row.target,
    layer,
    limit,
    total: own ? row.runtimeRpsRatio : row.rpsRatio,
    framework: framework.rps,
    dataAccess: own ? layerRow.runtimeRpsRatio : layerRow.rpsRatio,
    totalCpu: own ? row.runtimeCpuRatio : row.cpuRatio,
    frameworkCpu: framework.cpu,
    dataAccessCpu: own ? layerRow.runtimeCpuRatio : layerRow.cpuRatio,
    ...(headline.headline === "instructions-per-request"
      ? {
          totalIns: ratioIn(own ? { ...row, insRatio: row.runtimeInsRatio } : row, "instructions-per-request"),
          frameworkIns: framework.ins,
          dataAccessIns: ratioIn(
            own ? { ...layerRow, insRatio: layerRow.runtimeInsRatio } : layerRow,
            "instructions-per-request",
          ),
        }
      : {}),
    headline: headline.headline,
  };
}
