// The coverage table printed at the end of a URL run: every operation of the OpenAPI document × every status it
// documents, marked exercised when one of the suite's own requests got that status from that operation. The
// requests are counted by request-log.ts (a setup file); this module is the pure part: matching a request's path
// to its operation and laying the table out.

/** A request the suite sent and the status it got: `GET /users/5e1…?limit=2` → 200. */
export interface Observation {
  method: string;
  /** The request target as sent (path and query). */
  target: string;
  status: number;
  /** How many requests this line stands for. */
  count: number;
}

/** The part of an OpenAPI document read here: each path item's operations and their `responses`. */
export interface OpenApiLike {
  paths: Record<string, Record<string, unknown>>;
}

export interface OperationCoverage {
  /** `GET /users/{id}`. */
  operation: string;
  /** Each documented status with the number of requests that got it (0: not exercised). */
  statuses: Array<{ status: number; requests: number }>;
  /** Statuses the operation answered that its document does not list, with their counts. */
  undocumented: Array<{ status: number; requests: number }>;
}

export interface Coverage {
  operations: OperationCoverage[];
  /** Requests to no documented operation (unknown paths, unsupported methods): by status. */
  elsewhere: Array<{ status: number; requests: number }>;
  exercised: number;
  documented: number;
}

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** `/users/{id}` → a pattern matching one non-empty path segment where the template has a parameter. */
function templatePattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`)))
    .join("/");
  return new RegExp(`^${source}$`);
}

/** The path of a request target without its query or fragment ("*" and absolute forms reduced to a path). */
export function pathOf(target: string): string {
  let path = target;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return path;
    }
  }
  return path.replace(/[?#].*$/s, "");
}

/** Counts the observations against the document's operations and documented statuses. */
export function coverageOf(document: OpenApiLike, observations: Iterable<Observation>): Coverage {
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        pattern: templatePattern(path),
        // A template with no parameter wins over one that has them (`/users/me` before `/users/{id}`).
        literal: !path.includes("{"),
        documented: Object.keys((operation as { responses?: object }).responses ?? {})
          .filter((s) => /^\d{3}$/.test(s))
          .map(Number)
          .sort((a, b) => a - b),
        seen: new Map<number, number>(),
      })),
  );
  const elsewhere = new Map<number, number>();
  for (const o of observations) {
    const path = pathOf(o.target);
    const candidates = operations.filter((op) => op.method === o.method.toUpperCase() && op.pattern.test(path));
    const match = candidates.find((op) => op.literal) ?? candidates[0];
    const counts = match?.seen ?? elsewhere;
    counts.set(o.status, (counts.get(o.status) ?? 0) + o.count);
  }
  const sorted = (counts: Map<number, number>) =>
    [...counts].sort((a, b) => a[0] - b[0]).map(([status, requests]) => ({ status, requests }));
  const result = operations.map((op) => ({
    operation: `${op.method} ${op.path}`,
    statuses: op.documented.map((status) => ({ status, requests: op.seen.get(status) ?? 0 })),
    undocumented: sorted(new Map([...op.seen].filter(([status]) => !op.documented.includes(status)))),
  }));
  const pairs = result.flatMap((r) => r.statuses);
  return {
    operations: result,
    elsewhere: sorted(elsewhere),
    exercised: pairs.filter((p) => p.requests > 0).length,
    documented: pairs.length,
  };
}

/** The table as printed: one row per operation, its documented statuses exercised (with request counts) and not. */
export function formatCoverage(coverage: Coverage): string {
  const list = (items: Array<{ status: number; requests: number }>) =>
    items.map((i) => `${i.status} (${i.requests})`).join(", ") || "—";
  const rows = [
    ["operation", "exercised (requests)", "not exercised", "undocumented statuses seen"],
    ...coverage.operations.map((op) => [
      op.operation,
      list(op.statuses.filter((s) => s.requests > 0)),
      op.statuses
        .filter((s) => s.requests === 0)
        .map((s) => s.status)
        .join(", ") || "—",
      list(op.undocumented),
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  const line = (r: string[]) => `| ${r.map((v, i) => v.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  const percent = coverage.documented ? Math.round((100 * coverage.exercised) / coverage.documented) : 0;
  return [
    `Coverage: ${coverage.exercised} of ${coverage.documented} documented (operation, status) pairs exercised (${percent}%), counted from the suite's own requests`,
    line(rows[0] ?? []),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
    ...rows.slice(1).map(line),
    `Requests to no documented operation (unknown paths and methods), by status: ${list(coverage.elsewhere)}`,
  ].join("\n");
}
