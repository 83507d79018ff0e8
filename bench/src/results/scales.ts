// A growth run's results one scale at a time: each scale is a run of its own (its ratios, split and A/A lines within
// it), so the report renders each as it renders a one-scale run.
import { resolutionOf } from "../analysis/aa.ts";
import type { Results } from "./schema.ts";

/** The run's scales, ascending (one for a one-scale run, and for runs written before growth runs). */
export const scalesOf = (r: Pick<Results, "scale" | "scales">): number[] => r.scales?.map((s) => s.scale) ?? [r.scale];

/** What the run recorded at one scale, as a one-scale run's results. */
export function atScale(r: Results, scale: number): Results {
  const here = <T extends { scale?: number }>(items: readonly T[]) => items.filter((item) => item.scale === scale);
  const { scales, ...run } = r;
  const aa = r.aa ? here(r.aa) : undefined;
  return {
    ...run,
    scale,
    rows: scales?.find((s) => s.scale === scale)?.rows ?? r.rows,
    cells: here(r.cells),
    verification: here(r.verification),
    summary: here(r.summary),
    split: here(r.split),
    ...(aa ? { aa, resolution: resolutionOf(aa) } : {}),
  };
}
