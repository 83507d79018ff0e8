// Writes the run as a JUnit XML report for CI systems, when CONTRACT_JUNIT names a file (`pnpm test:contract
// --junit FILE` sets it): one <testsuite> per check group (test file), one <testcase> per check, named by its
// describe path; a skipped check carries its reason (the note the matrix reporter counts: what it needs and
// what to pass), a failed one its assertion message and stack. A file that failed outside its checks (a hook, an
// import) is one more failed <testcase> named after the file. Vitest's own `junit` reporter writes a bare
// <skipped/> for checks skipped at run time, without their reason, hence this one.
import { mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname } from "node:path";
import type { Reporter, TestCase, TestModule } from "vitest/node";

/** Text as XML character data or an attribute value; characters XML 1.0 cannot hold are dropped. */
export function escapeXml(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
      .replaceAll("&", "&amp;")
      .replaceAll("<", "&lt;")
      .replaceAll(">", "&gt;")
      .replaceAll('"', "&quot;")
      .replaceAll("'", "&apos;")
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes in error stacks
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");

export interface JUnitCase {
  name: string;
  classname: string;
  seconds: number;
  outcome:
    | { state: "passed" }
    | { state: "skipped"; reason: string }
    | { state: "failed"; message: string; detail: string };
}
export interface JUnitSuite {
  name: string;
  cases: JUnitCase[];
}

/** The JUnit XML document for these suites (the shape Jenkins, GitLab, GitHub's test reporters and Surefire read). */
export function junitXml(name: string, suites: JUnitSuite[], timestamp = new Date()): string {
  const count = (cases: JUnitCase[], state: string) => cases.filter((c) => c.outcome.state === state).length;
  const seconds = (cases: JUnitCase[]) => cases.reduce((sum, c) => sum + c.seconds, 0).toFixed(3);
  const all = suites.flatMap((s) => s.cases);
  const attributes = (cases: JUnitCase[]) =>
    `tests="${cases.length}" failures="${count(cases, "failed")}" errors="0" skipped="${count(cases, "skipped")}" time="${seconds(cases)}"`;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${escapeXml(name)}" ${attributes(all)}>`];
  for (const suite of suites) {
    lines.push(
      `  <testsuite name="${escapeXml(suite.name)}" ${attributes(suite.cases)} timestamp="${timestamp.toISOString()}" hostname="${escapeXml(hostname())}">`,
    );
    for (const c of suite.cases) {
      const open = `    <testcase classname="${escapeXml(c.classname)}" name="${escapeXml(c.name)}" time="${c.seconds.toFixed(3)}"`;
      if (c.outcome.state === "passed") lines.push(`${open}/>`);
      else if (c.outcome.state === "skipped")
        lines.push(`${open}>`, `      <skipped message="${escapeXml(c.outcome.reason)}"/>`, "    </testcase>");
      else
        lines.push(
          `${open}>`,
          `      <failure message="${escapeXml(c.outcome.message)}" type="AssertionError">${escapeXml(c.outcome.detail)}</failure>`,
          "    </testcase>",
        );
    }
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>", "");
  return lines.join("\n");
}

/** A check's describe path below the file, e.g. `url > GET /users > answers a page`. */
const pathOf = (test: TestCase) => test.fullName;

function caseOf(test: TestCase, group: string): JUnitCase {
  const result = test.result();
  const seconds = (test.diagnostic()?.duration ?? 0) / 1000;
  const base = { name: pathOf(test), classname: `contract.${group}`, seconds };
  if (result.state === "passed") return { ...base, outcome: { state: "passed" } };
  if (result.state === "failed") {
    const errors = result.errors ?? [];
    const message = errors.map((e) => stripAnsi(e.message ?? String(e))).join("\n") || "failed";
    const detail = errors.map((e) => stripAnsi(e.stack ?? e.message ?? "")).join("\n\n");
    return { ...base, outcome: { state: "failed", message: message.split("\n")[0] ?? message, detail } };
  }
  const reason = (result.state === "skipped" && result.note) || "skipped without a reason";
  return { ...base, outcome: { state: "skipped", reason } };
}

export default class JUnitReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const file = process.env.CONTRACT_JUNIT;
    if (!file) return;
    const suites: JUnitSuite[] = [];
    for (const module of testModules.filter((m) => m.moduleId.endsWith(".contract.test.ts"))) {
      const group = basename(module.moduleId).replace(/\.contract\.test\.ts$/, "");
      const cases = [...module.children.allTests()].map((test) => caseOf(test, group));
      const errors = module.errors();
      if (errors.length > 0) {
        cases.push({
          name: `${basename(module.moduleId)} (outside its checks)`,
          classname: `contract.${group}`,
          seconds: 0,
          outcome: {
            state: "failed",
            message: stripAnsi(errors[0]?.message ?? "failed"),
            detail: errors.map((e) => stripAnsi(e.stack ?? e.message ?? "")).join("\n\n"),
          },
        });
      }
      suites.push({ name: group, cases });
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, junitXml("contract", suites));
    process.stdout.write(`\nJUnit report: ${file}\n`);
  }
}
