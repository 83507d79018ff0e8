// The OpenAPI document as client generators read it, tied to what validation accepts; and `pnpm docs:check`,
// which fails when the generated parts of docs/ no longer match the contract.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { openApiDocument, routes } from "../src/index.ts";

type Parameter = { name: string; in: string; style?: string; explode?: boolean; schema: Record<string, unknown> };
type Operation = { parameters: Parameter[]; security?: unknown[]; responses: Record<string, unknown> };
const operation = (path: string, method: string) =>
  (openApiDocument.paths as Record<string, Record<string, Operation>>)[path]?.[method] as Operation;
const query = (path: string, name: string) =>
  operation(path, "get").parameters.find((p) => p.in === "query" && p.name === name) as Parameter;

describe("query parameters are described by meaning, and validation agrees with the description", () => {
  it("page and limit are integers with their bounds and defaults; inStock a boolean; include a form array", () => {
    expect(query("/products", "page").schema).toEqual({ type: "integer", minimum: 1, maximum: 1_000_000, default: 1 });
    expect(query("/products", "limit").schema).toEqual({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    expect(query("/products", "inStock").schema).toEqual({ type: "boolean" });
    expect(query("/products", "sort").schema.default).toBe("-createdAt");
    expect(query("/orders", "include")).toMatchObject({
      style: "form",
      explode: false,
      schema: { type: "array", items: { enum: ["user", "product"] }, uniqueItems: true },
    });
  });

  it("every integer's bounds are exactly what the Zod schema accepts on the wire", () => {
    const checked: string[] = [];
    for (const route of routes.filter((r) => r.query)) {
      const schema = route.query as z.ZodType;
      const path = route.path.replace(/:(\w+)/g, "{$1}");
      for (const p of operation(path, route.method.toLowerCase()).parameters.filter((p) => p.in === "query")) {
        if (p.schema.type !== "integer") continue;
        const { minimum, maximum } = p.schema as { minimum: number; maximum: number };
        const accepts = (value: number) => schema.safeParse({ [p.name]: String(value) }).success;
        expect([accepts(minimum), accepts(maximum)], `${route.path} ${p.name}`).toEqual([true, true]);
        expect([accepts(minimum - 1), accepts(maximum + 1)], `${route.path} ${p.name}`).toEqual([false, false]);
        checked.push(`${route.path} ${p.name}`);
      }
    }
    expect(checked).toContain("/products minPriceCents");
  });

  it("booleans and arrays are sent as the description says: `true`/`false`, one comma list", () => {
    const products = routes.find((r) => r.operationId === "listProducts")?.query as z.ZodType;
    const orders = routes.find((r) => r.operationId === "listOrders")?.query as z.ZodType;
    expect(products.parse({ inStock: "false" })).toMatchObject({ inStock: false });
    expect(orders.parse({ include: "user,product" })).toMatchObject({ include: ["user", "product"] });
    expect(orders.safeParse({ include: "user,user" }).success).toBe(false); // uniqueItems
  });
});

describe("security, servers, licence, tags, errors", () => {
  it("every operation that is not public needs the bearer token; public ones say they need none", () => {
    for (const route of routes) {
      const op = operation(route.path.replace(/:(\w+)/g, "{$1}"), route.method.toLowerCase());
      expect(op.security, `${route.method} ${route.path}`).toEqual(route.access === "public" ? [] : [{ bearer: [] }]);
    }
    expect(routes.filter((r) => r.access !== "public").length).toBeGreaterThan(0);
  });

  it("states 401 with www-authenticate where a token is needed, and 403 where the admin role is", () => {
    for (const route of routes) {
      const op = operation(route.path.replace(/:(\w+)/g, "{$1}"), route.method.toLowerCase()) as {
        responses: Record<string, { headers?: Record<string, unknown> }>;
      };
      const where = `${route.method} ${route.path}`;
      expect(op.responses["401"] !== undefined, where).toBe(route.access !== "public" || route.operationId === "login");
      expect(op.responses["403"] !== undefined, where).toBe(
        route.access === "admin" || route.operationId === "updateOrder",
      );
      for (const status of ["401", "403"])
        if (op.responses[status] && route.access !== "public")
          expect(op.responses[status]?.headers?.["www-authenticate"], `${where} ${status}`).toBeDefined();
    }
  });

  it("declares servers, a licence and a description for every tag it uses", () => {
    expect(openApiDocument.servers).toEqual([expect.objectContaining({ url: "/" })]);
    expect(openApiDocument.info.license.name).toBeTruthy();
    const described = new Set(openApiDocument.tags.filter((t) => t.description).map((t) => t.name));
    expect([...new Set(routes.map((r) => r.tag))].filter((t) => !described.has(t))).toEqual([]);
  });
});

describe("pnpm docs:check", () => {
  const script = fileURLToPath(new URL("../scripts/docs.ts", import.meta.url));
  const repoDocs = fileURLToPath(new URL("../../../docs", import.meta.url));
  const root = mkdtempSync(join(tmpdir(), "docs-check-"));
  cpSync(repoDocs, join(root, "docs"), { recursive: true });
  const run = (mode: "--check" | "--write") =>
    spawnSync(process.execPath, [script, mode, "--root", root], { encoding: "utf8" });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("passes on the committed docs, fails when a generated table is edited by hand, and --write repairs it", () => {
    expect(run("--check").status).toBe(0);
    const api = join(root, "docs", "api.md");
    const original = readFileSync(api, "utf8");
    writeFileSync(
      api,
      original.replace(
        "| GET `/users` | `limit` | integer | 1–100 | `20` |",
        "| GET `/users` | `limit` | integer | 1–50 | `20` |",
      ),
    );
    const stale = run("--check");
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("docs/api.md is stale");
    expect(run("--write").status).toBe(0);
    expect(readFileSync(api, "utf8")).toBe(original);
    expect(run("--check").status).toBe(0);
  });

  it("fails with a clear message when the markers are gone", () => {
    const api = join(root, "docs", "api.md");
    writeFileSync(api, readFileSync(api, "utf8").replace("<!-- /generated:routes -->", ""));
    const result = run("--check");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("no <!-- generated:routes");
  });
});
