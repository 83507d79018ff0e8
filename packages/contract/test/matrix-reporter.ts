// Prints the parity matrix at the end of a run: one row per check group (test file), one column per
// implementation (the top-level describe of each file), passed/failed counts in each cell.
import { basename } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class MatrixReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const cells = new Map<string, Map<string, { passed: number; failed: number; skipped: number }>>();
    const impls = new Set<string>();
    // Contract files only: in a run of every project (pnpm test), the other suites are not per implementation.
    for (const module of testModules.filter((m) => m.moduleId.endsWith(".contract.test.ts"))) {
      const group = basename(module.moduleId).replace(/\.contract\.test\.ts$/, "");
      for (const test of module.children.allTests()) {
        let top: { name: string; parent?: unknown; type?: string } = test;
        while (top.parent && (top.parent as { type?: string }).type === "suite") top = top.parent as typeof top;
        const impl = top === test ? "(all)" : top.name;
        impls.add(impl);
        const row = cells.get(group) ?? new Map();
        const cell = row.get(impl) ?? { passed: 0, failed: 0, skipped: 0 };
        const state = test.result().state;
        if (state === "passed") cell.passed++;
        else if (state === "failed") cell.failed++;
        else cell.skipped++;
        row.set(impl, cell);
        cells.set(group, row);
      }
    }
    if (cells.size === 0) return;
    const columns = [...impls].sort();
    const format = (c?: { passed: number; failed: number; skipped: number }) =>
      !c
        ? "-"
        : `${c.failed ? "FAIL" : "ok"} ${c.passed}/${c.passed + c.failed}${c.skipped ? ` (${c.skipped} skipped)` : ""}`;
    const rows = [
      ["check group", ...columns],
      ...[...cells].map(([group, row]) => [group, ...columns.map((col) => format(row.get(col)))]),
    ];
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
    const line = (r: string[]) => `| ${r.map((v, i) => v.padEnd(widths[i] ?? 0)).join(" | ")} |`;
    const out = [
      line(rows[0] ?? []),
      `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
      ...rows.slice(1).map(line),
    ];
    process.stdout.write(`\nParity matrix (passed/run per check group and implementation)\n${out.join("\n")}\n`);
  }
}
