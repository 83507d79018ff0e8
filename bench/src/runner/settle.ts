// Before a scenario's first round every target is loaded for --settle seconds, uncounted: JIT and heap settle over
// the first seconds of load, and without it first rounds cost up to twice the CPU per request of the last
// (bench/results/precision-study/README.md). In duet two targets settle at a time, one per load generator.
import type { LoadGenerator } from "../load/generator.ts";
import { type CellSpec, loadConfig } from "./cell.ts";
import type { LiveTarget, ScenarioPlan, ScenarioRunContext } from "./types.ts";

/** The shortest measured part a load run can have: a settling run's warm-up is all that counts. */
const TAIL_S = 0.5;

export async function settleTargets(
  plan: ScenarioPlan,
  runnable: LiveTarget[],
  connections: number,
  settleS: number,
  ctx: ScenarioRunContext,
) {
  if (settleS <= 0 || runnable.length === 0) return;
  const generators: LoadGenerator[] = ctx.duet ? [...ctx.duet.loadGenerators] : [ctx.loadGenerator];
  const queue = [...runnable];
  const atOnce = generators.length > 1 ? `, ${generators.length} at a time` : "";
  ctx.io.log(`${plan.name}: settling ${runnable.length} server(s) for ${settleS} s each${atOnce}`);
  await Promise.all(
    generators.map(async (generator) => {
      for (let target = queue.shift(); target; target = queue.shift()) {
        const spec: CellSpec = {
          scenario: plan.name,
          target,
          connections,
          repeat: 0,
          position: 0,
          warmupS: Math.max(0, settleS - TAIL_S),
          durationS: TAIL_S,
        };
        // A server that fails here fails its first cell too, where it is reported.
        await generator.run(loadConfig(spec, ctx)).catch(() => undefined);
      }
    }),
  );
}
