// Prints the coverage table at the end of a URL run (`pnpm test:contract --url …`): every operation of the OpenAPI
// document × every status it documents, marked exercised or not, from the requests the suite sent (counted by
// support/request-log.ts, a setup file, into each file's task meta). With --impl the suite checks several servers
// at once and prints the parity matrix instead; the table is for one server of one's own.
import type { Reporter, TestModule } from "vitest/node";
import { openApiDocument } from "../src/index.ts";
import { coverageOf, formatCoverage, type Observation } from "./support/coverage.ts";

export default class CoverageReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const observations: Observation[] = testModules.flatMap((m) => m.meta().requests ?? []);
    if (observations.length === 0) return;
    process.stdout.write(`\n${formatCoverage(coverageOf(openApiDocument, observations))}\n`);
  }
}
