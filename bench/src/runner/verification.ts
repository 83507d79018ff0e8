// Before a scenario is measured on a target, a sample of its requests is checked against the contract; a target
// that fails is reported (with its server's last output) and never measured.

import type { VerificationRecord } from "../results.ts";
import { type ScenarioName, scenarios } from "../scenarios.ts";
import { verifyScenario } from "../verify.ts";
import { restock } from "./database.ts";
import type { LiveTarget, ScenarioRunContext } from "./types.ts";

export async function verifyTargets(name: ScenarioName, targets: LiveTarget[], ctx: ScenarioRunContext) {
  const scenario = scenarios[name];
  const verification: VerificationRecord[] = [];
  const runnable: LiveTarget[] = [];
  for (const target of targets) {
    if (scenario.writes && target.databaseUrl) await restock(target.databaseUrl, ctx.pools.orderProductIds);
    const result = await verifyScenario(target.url, scenario, ctx.pools, {
      sampleSize: ctx.options.verifySample,
      seed: ctx.seed,
    });
    verification.push({ scenario: name, target: target.name, ...result });
    if (result.ok) runnable.push(target);
    else reportFailure(name, target.name, result, ctx);
  }
  return { verification, runnable };
}

function reportFailure(
  name: ScenarioName,
  target: string,
  result: Omit<VerificationRecord, "scenario" | "target">,
  ctx: ScenarioRunContext,
) {
  const first = result.failures[0];
  ctx.io.log(
    `✗ ${name} on ${target}: verification failed (${result.failed}/${result.checked}), not measured: ${first?.request} → ${first?.problem}`,
  );
  const output = ctx.output?.(target).trim();
  if (output) ctx.io.log(`  ${target} output (last lines):\n${output.split("\n").slice(-15).join("\n")}`);
}
