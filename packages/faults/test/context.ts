// What every fault file imports: the suite's context from global-setup, the implementations to run, and how a
// test records its figures for the table (vitest task meta, which the JSON report carries too).
import { type Implementation, selectImplementations } from "@api-ref/harness";
import { expect, inject, type TestContext } from "vitest";
import { type FaultApp, type SuiteDatabase, startApp } from "../src/app.ts";
import type { FaultName } from "../src/options.ts";
import type { Figures } from "../src/report/figures.ts";
import { type ProgressPlan, startCell } from "../src/report/progress.ts";
import "../src/report/figures.ts";

export const suite = inject("faults");
export const settings = suite.settings;
export const database: SuiteDatabase = {
  adminUrl: suite.adminUrl,
  template: suite.template,
  jwtSecret: suite.jwtSecret,
};

/** The run's cells, for the progress lines. */
export const progressPlan: ProgressPlan = {
  file: suite.progressFile,
  mode: settings.mode,
  impls: settings.impls,
  faults: settings.faults,
};

/** The implementations of this run (every registered one unless --impl), or none when the fault is not selected. */
export function implementationsFor(fault: FaultName): Implementation[] {
  return settings.faults.includes(fault) ? selectImplementations(settings.impls.join(",")) : [];
}

/** Throws the build failure of `impl`, if it had one, so that its tests fail with the reason. */
export function assertBuilt(impl: Implementation) {
  const error = suite.buildErrors[impl.name];
  if (error) throw new Error(error);
}

export function record(context: TestContext, impl: Implementation, fault: FaultName, figures: Figures) {
  context.task.meta.faults = { impl: impl.name, fault, figures };
}

export function note(context: TestContext, impl: Implementation, fault: FaultName, text: string) {
  context.task.meta.faults = { ...context.task.meta.faults, impl: impl.name, fault, note: text };
}

/** Fails with every violation listed, one per line. */
export function violationsMessage(violations: string[]) {
  return violations.length === 0 ? "" : `\n- ${violations.join("\n- ")}`;
}

/**
 * Starts `impl` for `fault` on its own database, runs the fault, records its figures and fails with every
 * violation (and the tail of what the app printed, when it printed anything: FAULTS_LOG_LEVEL=error makes it).
 */
export async function runFault(
  context: TestContext,
  impl: Implementation,
  fault: FaultName,
  run: (app: FaultApp) => Promise<{ figures: Figures; violations: string[] }>,
  options: { env?: Record<string, string>; prepare?: (databaseUrl: string) => Promise<void> } = {},
) {
  assertBuilt(impl);
  const ended = startCell(progressPlan, impl.name, fault);
  const app = await startApp(database, impl, fault, options.env, options.prepare).catch((error: unknown) => {
    ended();
    throw error;
  });
  try {
    const { figures, violations } = await run(app);
    record(context, impl, fault, figures);
    const output = app.running.output().trim();
    const tail = violations.length > 0 && output ? `\n--- ${impl.name} printed ---\n${output.slice(-3000)}` : "";
    expect(violations, `${violationsMessage(violations)}${tail}`).toEqual([]);
  } finally {
    await app.dispose();
    ended();
  }
}
