// Prints the parity matrix at the end of a run: one row per check group (test file), one column per
// implementation (the top-level describe of each file), passed/failed counts in each cell. Then the checks the
// run could not make, counted once per reason (a skipped check's note says what it needs and what to pass, e.g.
// --database-url in URL mode), and any check skipped without a reason.
import { basename } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class MatrixReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const cells = new Map<string, Map<string, { passed: number; failed: number; skipped: number }>>();
    const impls = new Set<string>();
    const notMade = new Map<string, number>();
    let total = 0;
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
        const result = test.result();
        total++;
        if (result.state === "passed") cell.passed++;
        else if (result.state === "failed") cell.failed++;
        else {
          cell.skipped++;
          const reason = (result.state === "skipped" && result.note) || "skipped without a reason";
          notMade.set(reason, (notMade.get(reason) ?? 0) + 1);
        }
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
    if (notMade.size > 0) {
      const count = [...notMade.values()].reduce((a, b) => a + b, 0);
      const width = String(Math.max(...notMade.values())).length;
      const reasons = [...notMade].sort((a, b) => b[1] - a[1]);
      process.stdout.write(
        `\n${count} of ${total} checks were not made, by reason:\n${reasons.map(([reason, n]) => `  ${String(n).padStart(width)}  ${reason}`).join("\n")}\n`,
      );
    }
  }
}
