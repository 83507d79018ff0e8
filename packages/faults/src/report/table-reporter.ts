// Prints the implementation × fault table at the end of `pnpm test:faults`, from the figures each test attached
// to itself (task meta).
import { basename } from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { FAULTS, type FaultName } from "../options.ts";
import "./figures.ts";
import { type Cell, renderDetails, renderTable, type State } from "./table.ts";

const faultOfModule = (moduleId: string) => basename(moduleId).replace(/\.faults\.test\.ts$/, "") as FaultName;

export default class FaultTableReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const cells = new Map<string, Map<FaultName, Cell>>();
    for (const module of testModules) {
      const moduleFault = faultOfModule(module.moduleId);
      for (const test of module.children.allTests()) {
        const meta = test.meta().faults;
        const impl = meta?.impl ?? (test.parent.type === "suite" ? test.parent.name : "(all)");
        const fault = meta?.fault ?? moduleFault;
        if (!(FAULTS as readonly string[]).includes(fault)) continue;
        const result = test.result().state;
        const state: State = result === "passed" ? "passed" : result === "failed" ? "failed" : "skipped";
        const row = cells.get(impl) ?? new Map<FaultName, Cell>();
        row.set(fault, { state, ...(meta ? { result: meta } : {}) });
        cells.set(impl, row);
      }
    }
    if (cells.size === 0) return;
    process.stdout.write(
      `\nFaults (implementation × fault)\n${renderTable(cells)}\n\nFigures\n${renderDetails(cells)}\n`,
    );
  }
}
