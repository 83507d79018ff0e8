// Writes the parts of docs/ that the contract already holds, so that the prose cannot drift from the code:
//   docs/openapi.json   the OpenAPI document every implementation serves at /openapi.json
//   docs/api.md         the sections between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`:
//                       routes (methods, statuses, auth), problems (the catalogue), query (parameters with types,
//                       bounds and defaults)
// Usage: node packages/contract/scripts/docs.ts --write | --check [--root DIR]
//        (pnpm docs:generate / pnpm docs:check)
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { errorStatuses, openApiDocument, PROBLEMS, type RouteSpec, routes } from "../src/index.ts";

const { values } = parseArgs({
  options: { write: { type: "boolean" }, check: { type: "boolean" }, root: { type: "string" } },
});
/** The repository root (`--root` points elsewhere: the unit test checks a copy). */
const root = resolve(values.root ?? resolve(dirname(fileURLToPath(import.meta.url)), "../../.."));
if (values.write === values.check) {
  process.stderr.write("usage: node packages/contract/scripts/docs.ts --write | --check\n");
  process.exit(2);
}

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required: boolean;
  style?: string;
  explode?: boolean;
  schema: Schema;
}

const code = (text: string | number) => `\`${text}\``;
const fmt = (n: number) => n.toLocaleString("en-US");

/** The route table's "who" column: public, any signed-in user (customers to their own rows), or admins. */
function accessText({ access, ownRows }: RouteSpec): string {
  if (access === "user") return ownRows ? "owner or admin" : "signed in";
  return access === "admin" ? "admin" : "anyone";
}

function routeTable(): string {
  const lines = ["| method | path | what | success | errors (problem details) | who |", "|---|---|---|---|---|---|"];
  for (const route of routes) {
    const { success } = route;
    const media = success.schema ? "application/json" : success.contentType;
    const successText = [
      `${success.status}`,
      media && success.status !== 204 ? code(media) : "empty body",
      success.location ? "+ `location`" : "",
    ]
      .filter(Boolean)
      .join(" ");
    lines.push(
      `| ${route.method} | ${code(route.path)} | ${route.summary} | ${successText} | ${errorStatuses(route).join(", ") || "—"} | ${accessText(route)} |`,
    );
  }
  return lines.join("\n");
}

function problemTable(): string {
  const lines = ["| status | type | title |", "|---|---|---|"];
  for (const p of Object.values(PROBLEMS).toSorted((a, b) => a.status - b.status)) {
    lines.push(`| ${p.status} | ${code(p.type)} | ${p.title} |`);
  }
  return lines.join("\n");
}

function typeOf(schema: Schema): string {
  if (schema.type === "array") {
    const items = schema.items as Schema;
    return `comma list of ${(items.enum as string[]).map(code).join(", ")}`;
  }
  if (Array.isArray(schema.enum)) return `one of ${(schema.enum as string[]).map(code).join(", ")}`;
  if (schema.format === "uuid") return "UUID";
  return String(schema.type);
}

function boundsOf(schema: Schema): string {
  if (schema.minimum !== undefined) return `${fmt(schema.minimum as number)}–${fmt(schema.maximum as number)}`;
  if (schema.minLength !== undefined) return `${schema.minLength}–${schema.maxLength} characters`;
  if (schema.type === "array") return `each at most once`;
  return "";
}

function queryTable(): string {
  const lines = ["| route | parameter | type | bounds | default |", "|---|---|---|---|---|"];
  for (const [path, item] of Object.entries(openApiDocument.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, { parameters: Parameter[] }>)) {
      for (const p of operation.parameters.filter((p) => p.in === "query")) {
        const d = p.schema.default;
        lines.push(
          `| ${method.toUpperCase()} ${code(path)} | ${code(p.name)} | ${typeOf(p.schema)} | ${boundsOf(p.schema)} | ${d === undefined ? "—" : code(String(d))} |`,
        );
      }
    }
  }
  return lines.join("\n");
}

const sections: Record<string, () => string> = { routes: routeTable, problems: problemTable, query: queryTable };

function withSections(markdown: string, file: string): string {
  let out = markdown;
  for (const [name, render] of Object.entries(sections)) {
    const pattern = new RegExp(`(<!-- generated:${name} [^>]*-->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(out))
      throw new Error(`${file}: no <!-- generated:${name} … --> … <!-- /generated:${name} --> markers`);
    out = out.replace(pattern, (_m, open: string, close: string) => `${open}${render()}\n${close}`);
  }
  return out;
}

const files: Array<{ path: string; expected: (current: string) => string }> = [
  { path: join(root, "docs", "openapi.json"), expected: () => `${JSON.stringify(openApiDocument, null, 2)}\n` },
  { path: join(root, "docs", "api.md"), expected: (current) => withSections(current, "docs/api.md") },
];

const stale: string[] = [];
for (const file of files) {
  let current = "";
  try {
    current = readFileSync(file.path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || file.path.endsWith(".md")) throw error;
  }
  let expected: string;
  try {
    expected = file.expected(current);
  } catch (error) {
    process.stderr.write(`docs: ${(error as Error).message}\n`);
    process.exit(1);
  }
  if (expected === current) continue;
  stale.push(relative(root, file.path));
  if (values.write) writeFileSync(file.path, expected);
}

if (values.write) {
  process.stdout.write(stale.length ? `docs: rewrote ${stale.join(", ")}\n` : "docs: up to date\n");
} else if (stale.length) {
  process.stderr.write(
    `docs: ${stale.join(", ")} ${stale.length === 1 ? "is" : "are"} stale: the contract changed; run \`pnpm docs:generate\` and commit the result\n`,
  );
  process.exit(1);
} else {
  process.stdout.write("docs: generated parts match the contract\n");
}
