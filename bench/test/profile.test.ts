// --profile: where a server's CPU goes. The pieces on hand-made profiles (exact widths and shares), then one smoke
// run of the CLI that must leave a profile per cell and a flame graph in report.html.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTree, flameSvg, layout } from "../src/profile/flame.ts";
import { type Layer, layerOf, layerOfStack, packageOf, summarise } from "../src/profile/layers.ts";
import { type CpuProfile, fromCollapsed, fromCpuProfile, mergeStacks } from "../src/profile/stacks.ts";

const PNPM = "file:///repo/node_modules/.pnpm";

describe("layers", () => {
  it.each<[string, string, Layer]>([
    ["handle", `${PNPM}/router@2.2.0/node_modules/router/lib/layer.js`, "framework"],
    ["runPreParsing", `${PNPM}/fastify@5.6.1/node_modules/fastify/lib/route.js`, "framework"],
    ["find", `${PNPM}/find-my-way@9.3.0/node_modules/find-my-way/index.js`, "framework"],
    [
      "callRouteHandler",
      `${PNPM}/@nestjs+core@12.5.1/node_modules/@nestjs/core/router/router-execution-context.js`,
      "framework",
    ],
    ["dispatch", `${PNPM}/hono@4.13.19/node_modules/hono/dist/compose.js`, "framework"],
    ["_execute", `${PNPM}/@hapi+hapi@21.4.0/node_modules/@hapi/hapi/lib/request.js`, "framework"],
    ["safeParse", `${PNPM}/zod@4.1.12/node_modules/zod/v4/classic/parse.js`, "validation"],
    ["validate", `${PNPM}/ajv@8.17.1/node_modules/ajv/dist/compile/index.js`, "validation"],
    ["$main", `${PNPM}/fast-json-stringify@6.1.1/node_modules/fast-json-stringify/index.js`, "serialisation"],
    ["stringify", "", "serialisation"],
    ["request", `${PNPM}/@prisma+client@7.10.0/node_modules/@prisma/client/runtime/client.js`, "Prisma"],
    ["queryRaw", `${PNPM}/@prisma+adapter-pg@7.10.1/node_modules/@prisma/adapter-pg/dist/index.mjs`, "Prisma"],
    ["parse", `${PNPM}/pg-protocol@1.10.3/node_modules/pg-protocol/dist/parser.js`, "pg driver"],
    ["addFields", `${PNPM}/pg@8.16.3/node_modules/pg/lib/result.js`, "pg driver"],
    ["writeHead", "node:_http_server", "node:http"],
    ["onStreamRead", "node:internal/stream_base_commons", "node:http"],
    ["toUser", "file:///repo/packages/data-access/src/dto.ts", "app and core"],
    ["handler", "file:///repo/bench/baselines/node-http-pg.ts", "app and core"],
    ["(garbage collector)", "", "GC"],
    ["(program)", "", "other"],
    ["run", "/srv/app/.venv/lib/python3.11/site-packages/starlette/routing.py", "framework"],
    ["validate_python", "/srv/app/.venv/lib/python3.11/site-packages/pydantic/main.py", "validation"],
    ["_execute", "/srv/app/.venv/lib/python3.11/site-packages/asyncpg/connection.py", "pg driver"],
    ["APIRoute.handle", "fastapi/routing.py", "framework"],
    ["Connection._do_execute", "asyncpg/connection.py", "pg driver"],
    ["RequestId.__call__", "app/middleware.py", "app and core"],
    ["list_products", "/repo/packages/python/api_core/data/products.py", "app and core"],
    ["Text.validate", "api_contract/types.py", "app and core"],
    ["Runner.run", "asyncio/runners.py", "other"],
  ])("%s in %s is %s", (name, url, layer) => {
    expect(layerOf({ name, url })).toBe(layer);
  });

  it("names the package of a pnpm path, scoped or not", () => {
    expect(packageOf(`${PNPM}/@prisma+client@7.10.0/node_modules/@prisma/client/x.js`)).toBe("@prisma/client");
    expect(packageOf(`${PNPM}/pg@8.16.3/node_modules/pg/lib/client.js`)).toBe("pg");
    expect(packageOf("file:///repo/apps/express/src/app.ts")).toBeUndefined();
  });

  it("counts a native function for the nearest caller with a file", () => {
    const frames = [
      { name: "writeGeneric", url: "node:internal/stream_base_commons", line: 1 },
      { name: "writev", url: "", line: 0 },
    ];
    expect(layerOfStack(frames, [0, 1])).toBe("node:http");
  });
});

// (root) → a (app) → b (pg) ×3 samples, a self ×1, (idle) ×5, (garbage collector) ×1.
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 }, children: [2, 4, 5] },
    { id: 2, callFrame: { functionName: "a", url: "file:///repo/apps/x/src/a.ts", lineNumber: 9 }, children: [3] },
    { id: 3, callFrame: { functionName: "b", url: `${PNPM}/pg@8.16.3/node_modules/pg/lib/b.js`, lineNumber: 0 } },
    { id: 4, callFrame: { functionName: "(idle)", url: "", lineNumber: -1 } },
    { id: 5, callFrame: { functionName: "(garbage collector)", url: "", lineNumber: -1 } },
  ],
  samples: [3, 3, 2, 4, 4, 4, 4, 4, 3, 5],
};

describe("profiles as stacks and flame graphs", () => {
  it("reads a .cpuprofile: idle apart, (root) dropped, lines 1-based", () => {
    const stacks = fromCpuProfile(PROFILE);
    expect(stacks.idle).toBe(5);
    const named = [...stacks.samples].map(([k, n]) => [
      k
        .split(",")
        .map((i) => stacks.frames[Number(i)]?.name)
        .join(">"),
      n,
    ]);
    expect(new Map(named as Array<[string, number]>)).toEqual(
      new Map([
        ["a>b", 3],
        ["a", 1],
        ["(garbage collector)", 1],
      ]),
    );
    expect(stacks.frames.find((f) => f.name === "a")?.line).toBe(10);
  });

  it("shares by layer and the top self time", () => {
    const { total, layers, top } = summarise(fromCpuProfile(PROFILE));
    expect(total).toBe(5);
    const share = Object.fromEntries(layers.map((l) => [l.layer, l.share]));
    expect(share).toMatchObject({ "pg driver": 0.6, "app and core": 0.2, GC: 0.2, framework: 0 });
    expect(top[0]).toMatchObject({ name: "b", layer: "pg driver", selfSamples: 3 });
  });

  it("lays frames out by their share of the samples", () => {
    const stacks = fromCpuProfile(PROFILE);
    const rects = layout(callTree(stacks), 1000).map((r) => ({ name: stacks.frames[r.frame]?.name, ...r }));
    expect(rects.map(({ name, depth, x, width }) => ({ name, depth, x, width }))).toEqual([
      { name: "(garbage collector)", depth: 0, x: 0, width: 200 },
      { name: "a", depth: 0, x: 200, width: 800 },
      { name: "b", depth: 1, x: 200, width: 600 },
    ]);
    const svg = flameSvg(stacks, "x · y", 1000);
    expect(svg).toContain('<svg class="flame"');
    expect(svg).toContain("b (pg/lib/b.js:1) — 3 samples, 60.0%");
  });

  it("reads py-spy's collapsed stacks and merges profiles", () => {
    const text = [
      'process 7:"python -m app.server";run (uvicorn/server.py:60);handle (starlette/routing.py:10) 4',
      'process 7:"python -m app.server";run (uvicorn/server.py:60) 2',
      "",
    ].join("\n");
    const one = fromCollapsed(text);
    expect([...one.samples.values()].sort()).toEqual([2, 4]);
    const both = mergeStacks([one, one]);
    expect([...both.samples.values()].reduce((a, b) => a + b, 0)).toBe(12);
    expect(both.frames.map((f) => f.name)).toEqual(["run", "handle"]);
  });
});

describe("pnpm bench --smoke --profile", () => {
  it("writes each cell's profile and a flame graph per implementation and scenario into report.html", () => {
    const out = mkdtempSync(join(tmpdir(), "bench-profile-test-"));
    try {
      const run = spawnSync(
        process.execPath,
        ["src/cli.ts", "--smoke", "--profile", "--impl", "express", "--scenario", "user-by-id", "--out", out],
        { cwd: join(import.meta.dirname, ".."), encoding: "utf8", timeout: 240_000 },
      );
      expect(run.status, run.stderr).toBe(0);
      const files = readdirSync(join(out, "profiles"));
      expect(files).toContain("express--user-by-id--c25--r1.cpuprofile");
      const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
      const express = results.profiles.find((p: { target: string }) => p.target === "express");
      expect(express.samples).toBeGreaterThan(0);
      expect(express.layers.find((l: { layer: string }) => l.layer === "Prisma").share).toBeGreaterThan(0);
      for (const file of express.files) expect(existsSync(join(out, file))).toBe(true);
      const html = readFileSync(join(out, "report.html"), "utf8");
      const flame = /<svg class="flame" role="img" aria-label="express · user-by-id"[\s\S]*?<\/svg>/.exec(html)?.[0];
      expect(flame).toBeDefined();
      expect(flame).toMatch(/router\/lib\/|express\/lib\//);
      expect(flame).toContain("@prisma/client");
      expect(html).not.toMatch(/<script[^>]+src=/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);
});
