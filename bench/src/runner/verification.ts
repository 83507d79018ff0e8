// Before a scenario is measured on a target, a sample of its requests is checked against the contract; a target
// that fails is reported (with its server's last output) and never measured.

import type { VerificationRecord } from "../results/schema.ts";
import { type ScenarioName, scenarios } from "../scenarios/catalog.ts";
import { verifyScenario } from "../verify.ts";
import { restock } from "./database.ts";
import { parkProcess } from "./restart.ts";
import type { LiveTarget, ScenarioRunContext } from "./types.ts";

export async function verifyTargets(name: ScenarioName, targets: LiveTarget[], ctx: ScenarioRunContext) {
  const scenario = scenarios[name];
  const verification: VerificationRecord[] = [];
  const runnable: LiveTarget[] = [];
  for (const target of targets) {
    if (scenario.writes && target.databaseUrl) await restock(target.databaseUrl, ctx.pools.orderProductIds);
    // --restart cell: servers are parked between their cells; each is started to be verified, then parked again.
    const started = await startForVerification(target, ctx);
    const result = started
      ? { ok: false, checked: 0, failed: 1, failures: [{ request: "(start)", problem: started }] }
      : await verifyScenario(target.url, scenario, ctx.pools, {
          sampleSize: Math.min(ctx.options.verifySample, scenario.maxVerifySample ?? Number.POSITIVE_INFINITY),
          seed: ctx.seed,
        });
    await parkProcess(target, ctx);
    verification.push({ scenario: name, target: target.name, ...result });
    if (result.ok) runnable.push(target);
    else reportFailure(name, target.name, result, ctx);
  }
  return { verification, runnable };
}

/** With --restart cell, a fresh process to verify; the reason when it does not start. */
async function startForVerification(target: LiveTarget, ctx: ScenarioRunContext): Promise<string | undefined> {
  if (!ctx.restart) return undefined;
  try {
    await ctx.restart.fresh(target);
    return undefined;
  } catch (error) {
    return `the server did not start: ${(error as Error).message.split("\n")[0]}`;
  }
}

function reportFailure(
  name: ScenarioName,
  target: string,
  result: Omit<VerificationRecord, "scenario" | "target">,
  ctx: ScenarioRunContext,
) {
  const first = result.failures[0];
  ctx.io.log(
    `✗ ${name} on ${target}: verification failed (${result.failed}/${result.checked}), not measured: ` +
      `${first?.request} → ${first?.problem}`,
  );
  const output = ctx.output?.(target).trim();
  if (output) ctx.io.log(`  ${target} output (last lines):\n${output.split("\n").slice(-15).join("\n")}`);
}
