// The conformance kit around a URL run (`pnpm test:contract --url … --junit FILE`): the JUnit file, parsed as XML,
// holds one test case per check with the run's own outcome (skips with their reason), and the run prints the
// coverage table counted from the requests the suite sent. The run is two check groups against a stand-in server
// (support/stand-in-server.ts): some checks fail on it, the others are skipped for want of a secret or database.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../src/index.ts";
import { escapeXml, junitXml } from "./junit-reporter.ts";
import { type StandIn, startStandIn } from "./support/stand-in-server.ts";

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  isArray: (name) => name === "testsuite" || name === "testcase",
});

interface JsonReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }> }>;
}
interface XmlCase {
  name: string;
  classname: string;
  skipped?: { message: string };
  failure?: { message: string };
}

let standIn: StandIn;
let dir: string;
let run: { code: number | null; stdout: string; xml: string; json: JsonReport };

beforeAll(async () => {
  standIn = await startStandIn();
  dir = mkdtempSync(join(tmpdir(), "contract-kit-"));
  const junit = join(dir, "contract.xml");
  const json = join(dir, "contract.json");
  const args = [cli, "--url", standIn.url, "--junit", junit, "--", "interop", "startup"];
  // The JSON reporter is the run's own account of each check, to compare the JUnit file with.
  args.push("--reporter=default", "--reporter=json", `--outputFile.json=${json}`);
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, args, {
      // As `pnpm test:contract` runs it: the package's own bin directory first (vitest).
      env: {
        PATH: `${fileURLToPath(new URL("../node_modules/.bin", import.meta.url))}${delimiter}${process.env.PATH}`,
        NO_COLOR: "1",
      },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.once("close", (code) => resolve({ code, stdout }));
  });
  run = { code, stdout, xml: readFileSync(junit, "utf8"), json: JSON.parse(readFileSync(json, "utf8")) };
}, 120_000);
afterAll(async () => {
  await standIn?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("pnpm test:contract --url … --junit FILE", () => {
  it("writes well-formed XML whose totals are the run's", () => {
    expect(run.code).toBe(1); // checks failed on the stand-in
    expect(XMLValidator.validate(run.xml)).toBe(true);
    const { testsuites } = parser.parse(run.xml);
    const { json } = run;
    expect(json.numFailedTests).toBeGreaterThan(0);
    expect(json.numPendingTests).toBeGreaterThan(0);
    expect(Number(testsuites.tests)).toBe(json.numTotalTests);
    expect(Number(testsuites.failures)).toBe(json.numFailedTests);
    expect(Number(testsuites.skipped)).toBe(json.numPendingTests);
    expect(testsuites.testsuite.map((s: { name: string }) => s.name).sort()).toEqual(["interop", "startup"]);
    for (const suite of testsuites.testsuite) {
      const cases: XmlCase[] = suite.testcase;
      expect(Number(suite.tests)).toBe(cases.length);
      expect(Number(suite.failures)).toBe(cases.filter((c) => c.failure).length);
      expect(Number(suite.skipped)).toBe(cases.filter((c) => c.skipped).length);
    }
  });

  it("has one test case per check, failed or skipped as in the run, each skip with its reason", () => {
    const cases: XmlCase[] = parser
      .parse(run.xml)
      .testsuites.testsuite.flatMap((s: { testcase: XmlCase[] }) => s.testcase);
    const outcome = (c: XmlCase) => (c.failure ? "failed" : c.skipped ? "skipped" : "passed");
    const fromXml = cases.map((c) => [c.name, outcome(c)]).sort();
    const fromRun = run.json.testResults
      .flatMap((file) => file.assertionResults)
      .map((a) => [[...a.ancestorTitles, a.title].join(" > "), a.status === "pending" ? "skipped" : a.status])
      .sort();
    expect(fromXml).toEqual(fromRun);
    const reasons = new Set(cases.flatMap((c) => (c.skipped ? [c.skipped.message] : [])));
    expect(reasons).toEqual(
      new Set([
        "needs the server's JWT secret: pass --jwt-secret SECRET (or set JWT_SECRET)",
        "needs the server's database: pass --database-url URL (or set DATABASE_URL)",
        "starts registered implementations itself: runs with --impl, never with --url",
      ]),
    );
    for (const c of cases.filter((c) => c.failure)) expect(c.failure?.message).toMatch(/expected 404 to be 201/);
  });

  it("ends with the coverage table, counting the requests the stand-in answered", () => {
    const table = run.stdout.slice(run.stdout.indexOf("Coverage: "));
    expect(table).toMatch(/^Coverage: 0 of \d+ documented \(operation, status\) pairs exercised \(0%\)/);
    // The interop checks register a user on the stand-in, which answers 404 to that: undocumented for the route.
    const register = table.split("\n").find((line) => line.startsWith("| POST /auth/register "));
    const documented = Object.keys(
      (openApiDocument.paths as Record<string, Record<string, { responses: object }>>)["/auth/register"]?.post
        ?.responses ?? {},
    ).join(", ");
    expect(documented).toMatch(/^201, 400, /);
    expect(register).toMatch(new RegExp(`\\| — +\\| ${documented} +\\| 404 \\(\\d+\\) +\\|$`));
  });
});

describe("junitXml", () => {
  it("escapes what XML cannot hold as text and drops what it cannot hold at all", () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0000\u001b`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;",
    );
    const xml = junitXml("n", [
      {
        name: "g",
        cases: [
          {
            name: "a <b>",
            classname: "c",
            seconds: 0.5,
            outcome: { state: "failed", message: "x\u0007", detail: "]]>" },
          },
        ],
      },
    ]);
    expect(XMLValidator.validate(xml)).toBe(true);
    const { testsuites } = parser.parse(xml);
    expect(testsuites.testsuite[0].testcase[0]).toMatchObject({
      name: "a <b>",
      failure: { message: "x", "#text": "]]>" },
    });
  });
});
