// Schemathesis against an implementation's own /openapi.json, with the checks for server errors, status codes,
// content types and response schemas. It runs from the pinned virtual environment scripts/setup-schemathesis.sh
// creates, in a temporary directory (its example database and reports go there, not into the repository). Every
// request carries the seed's admin's bearer token, which every route admits, so that the operations that need a
// caller are tested for what they answer rather than refused at the door.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fixtureUsers } from "@api-ref/db/fixtures";
import { bearerFor, jsonOf, runCommand, send } from "@api-ref/harness";
import type { FaultApp } from "./app.ts";
import type { FuzzFigures } from "./report/figures.ts";

export const SCHEMATHESIS_CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
] as const;

/** The venv's executable; FAULTS_SCHEMATHESIS overrides it. */
export const schemathesisBin = () =>
  process.env.FAULTS_SCHEMATHESIS ?? fileURLToPath(new URL("../.venv/bin/schemathesis", import.meta.url));

export const SETUP_HINT = "run `pnpm --filter @api-ref/faults setup:schemathesis` (creates packages/faults/.venv)";

export interface SchemathesisOptions {
  maxExamples: number;
  phases: string[];
  maxTimeS: number;
  seed: number;
  /** The app's JWT_SECRET, to sign the admin's token with. */
  jwtSecret: string;
}

interface Report {
  schemathesis_version: string;
  running_time: number;
  phases: Record<string, { status: string }>;
  test_cases: { generated: number; with_failures: number; unique_failures: number; errored: number };
  failures: unknown[];
  errors: Array<{ message?: string; title?: string } | string>;
  operations: { selected: number; tested: number };
}

/** How many OpenAPI links a document declares (Schemathesis's stateful phase follows them). */
export function declaredLinks(document: unknown): number {
  let count = 0;
  const stack = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== "object") continue;
    for (const [key, child] of Object.entries(value)) {
      if (key === "links" && child !== null && typeof child === "object") count += Object.keys(child).length;
      else stack.push(child);
    }
  }
  return count;
}

/** The part of Schemathesis's output that explains failures and errors (it prints a reproducing curl for each). */
function problemsSection(output: string): string {
  const start = output.search(/^=+ (FAILURES|ERRORS) =+$/m);
  const end = output.search(/^=+ (WARNINGS|SUMMARY) =+$/m);
  return (start >= 0 ? output.slice(start, end > start ? end : undefined) : output.slice(-3000)).slice(0, 6000);
}

export async function runSchemathesis(
  app: FaultApp,
  options: SchemathesisOptions,
): Promise<{ figures: FuzzFigures; violations: string[] }> {
  const bin = schemathesisBin();
  if (!existsSync(bin)) throw new Error(`Schemathesis is not installed at ${bin}: ${SETUP_HINT}`);
  const document = jsonOf(await send(app.url, { method: "GET", path: "/openapi.json" }));
  const work = await mkdtemp(join(tmpdir(), "faults-schemathesis-"));
  try {
    const reportPath = join(work, "report.json");
    const args = [
      "run",
      `${app.url}/openapi.json`,
      "--checks",
      SCHEMATHESIS_CHECKS.join(","),
      "--phases",
      options.phases.join(","),
      "--max-examples",
      String(options.maxExamples),
      "--header",
      `Authorization: ${bearerFor(options.jwtSecret, fixtureUsers.admin.id)}`,
      "--seed",
      String(options.seed),
      // One worker: with several, CPython 3.11's ast module can fail in Hypothesis ("AST constructor recursion
      // depth mismatch"), which Schemathesis reports as errors that are not the API's.
      "--workers",
      "1",
      "--request-timeout",
      "10",
      "--generation-database",
      "none",
      "--no-color",
      "--report",
      "json",
      "--report-json-path",
      reportPath,
      ...(options.maxTimeS > 0 ? ["--max-time", String(options.maxTimeS)] : []),
    ];
    const started = performance.now();
    const result = await runCommand(bin, args, {
      cwd: work,
      env: { ...process.env, NO_COLOR: "1", PYTHONDONTWRITEBYTECODE: "1" },
      keepChars: 200_000,
      timeoutMs: 60 * 60_000,
    });
    const code = result.code;
    const output = result.error ? `${result.output}\n${result.error.message}` : result.output;
    const seconds = (performance.now() - started) / 1000;
    if (!existsSync(reportPath))
      throw new Error(`Schemathesis wrote no report (exit ${code}):\n${output.slice(-4000)}`);
    const report = JSON.parse(await readFile(reportPath, "utf8")) as Report;
    const links = /API Links:\s+(\d+) covered \/ (\d+) selected \/ (\d+) total(?: \((\d+) inferred\))?/.exec(output);
    const scenarios = /Scenarios:\s+(\d+)/.exec(output);
    const failures = report.test_cases.unique_failures;
    const errors = report.errors.length + report.test_cases.errored;
    const violations: string[] = [];
    if (failures > 0 || errors > 0)
      violations.push(
        `Schemathesis found ${failures} failure(s) and ${errors} error(s) (seed ${options.seed}):\n${problemsSection(output)}`,
      );
    else if (code !== 0) violations.push(`Schemathesis exited ${code}:\n${output.slice(-3000)}`);
    if (report.test_cases.generated === 0) violations.push("Schemathesis ran no test case: the check proves nothing");
    const ran = Object.entries(report.phases)
      .filter(([, p]) => p.status !== "skip")
      .map(([name]) => name);
    return {
      violations,
      figures: {
        fault: "schema-fuzz",
        version: report.schemathesis_version,
        phases: ran.join(","),
        cases: report.test_cases.generated,
        failures,
        errors,
        declaredLinks: declaredLinks(document),
        inferredLinks: links ? Number(links[4] ?? 0) : 0,
        statefulScenarios: scenarios ? Number(scenarios[1]) : 0,
        seconds: Math.round(seconds),
      },
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
