// The verdict on one executed plan (the rule is written out in test/plans.test.ts's header), and the allow-list
// that excuses what the contract documents as growing with the data (catalogue.json's `allowances`).
import catalogue from "./catalogue.json" with { type: "json" };
import type { ExplainedStatement, PlanNode } from "./tap.ts";

/** The tables that grow with the data; idempotency_keys and the migrations' table are read by key only. */
const GROWING_TABLES = new Set(["users", "products", "orders"]);

export type ViolationKind = "seq-scan" | "sort" | "rows-read";

export interface Violation {
  kind: ViolationKind;
  detail: string;
}

/** `count` for a list's total (`SELECT count(*) …`, Prisma's `SELECT COUNT(*) … FROM (…) AS sub` too), else `rows`. */
export const statementRole = (statement: ExplainedStatement) =>
  /^\s*SELECT\s+COUNT\(\*\)/i.test(statement["Query Text"]) ? "count" : "rows";

const rowsOut = (node: PlanNode) => (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1);

/** Rows a scan took from its table: those it returned and those its filter or recheck threw away, in every loop. */
const rowsRead = (node: PlanNode) =>
  ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0)) *
  (node["Actual Loops"] ?? 1);

function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

const readsGrowingTable = (node: PlanNode) =>
  [...nodesOf(node)].some((n) => GROWING_TABLES.has(n["Relation Name"] ?? ""));

const count = (n: number) => Math.round(n).toLocaleString("en-US");

/** Everything wrong with one plan, whatever the allow-list says. */
export function violationsOf(plan: PlanNode, bound: number): Violation[] {
  const found: Violation[] = [];
  for (const node of nodesOf(plan)) {
    const table = node["Relation Name"];
    const type = node["Node Type"];
    if (table && GROWING_TABLES.has(table)) {
      const index = node["Index Name"] ? ` using ${node["Index Name"]}` : "";
      if (type === "Seq Scan")
        found.push({ kind: "seq-scan", detail: `Seq Scan on ${table} (${count(rowsRead(node))} rows)` });
      else if (rowsRead(node) > bound)
        found.push({ kind: "rows-read", detail: `${type}${index} on ${table} reads ${count(rowsRead(node))} rows` });
    }
    const sorted = (node.Plans ?? []).reduce((sum, child) => sum + rowsOut(child), 0);
    if (type === "Sort" && sorted > bound && readsGrowingTable(node)) {
      found.push({ kind: "sort", detail: `Sort by ${(node["Sort Key"] ?? []).join(", ")} of ${count(sorted)} rows` });
    }
  }
  return found;
}

export interface Allowance {
  param: string;
  statement: "count" | "rows";
  waives: ViolationKind[];
  why: string;
}

export const ALLOWANCES = catalogue.allowances as Allowance[];

/** The allowances that apply to a statement of a case read with these query parameters. */
export const allowancesFor = (params: URLSearchParams, statement: ExplainedStatement) =>
  ALLOWANCES.filter((a) => params.has(a.param) && a.statement === statementRole(statement));

/** What remains of a statement's violations once its allowances waived theirs, and the allowances that did. */
export function judge(params: URLSearchParams, statement: ExplainedStatement, bound: number) {
  const allowances = allowancesFor(params, statement);
  const violations = violationsOf(statement.Plan, bound);
  const waived = (v: Violation) => allowances.some((a) => a.waives.includes(v.kind));
  return {
    failures: violations.filter((v) => !waived(v)),
    used: allowances.filter((a) => violations.some((v) => a.waives.includes(v.kind))),
  };
}

/** A plan as an indented outline, one node a line with the rows it read: what a failure shows. */
export function outline(node: PlanNode, depth = 0): string {
  const using = node["Index Name"] ? ` using ${node["Index Name"]}` : "";
  const on = node["Relation Name"] ? ` on ${node["Relation Name"]}` : "";
  const removed = node["Rows Removed by Filter"] ? `, removed ${node["Rows Removed by Filter"]}` : "";
  const rows = `(rows ${node["Actual Rows"]}${removed}, loops ${node["Actual Loops"]})`;
  return [
    `${"  ".repeat(depth)}${node["Node Type"]}${using}${on} ${rows}`,
    ...(node.Plans ?? []).map((child) => outline(child, depth + 1)),
  ].join("\n");
}
