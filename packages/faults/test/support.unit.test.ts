// The parts of the suite that are not the oracle: the options, the every-route round, the memory figures and the
// heap probe, the Schemathesis link count and the table.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fixtureProducts } from "@api-ref/db/fixtures";
import { freePort, implementations } from "@api-ref/harness";
import { describe, expect, it } from "vitest";
import { contractRoutes, runRound } from "../src/every-route.ts";
import { FAULTS, parseCli } from "../src/options.ts";
import { renderTable } from "../src/report/table.ts";
import { declaredLinks } from "../src/schemathesis.ts";
import { HEAP_PROBE, heapAfterGc, heapProbeEnv, quarterGrowth, rssOf } from "../src/soak/memory.ts";

describe("options", () => {
  it("is short under CI and long otherwise, unless told", () => {
    expect(parseCli([], { CI: "true" }).settings.mode).toBe("short");
    expect(parseCli([], {}).settings.mode).toBe("long");
    expect(parseCli(["--long"], { CI: "1" }).settings.mode).toBe("long");
    expect(parseCli(["--short"], {}).settings.mode).toBe("short");
    expect(() => parseCli(["--short", "--long"], {})).toThrow(/cannot be combined/);
  });

  it("runs every registered implementation and every fault unless narrowed", () => {
    const { settings } = parseCli([], {});
    expect(settings.impls).toEqual(implementations.map((i) => i.name));
    expect(settings.faults).toEqual([...FAULTS]);
    const narrowed = parseCli(["--impl", "express", "--fault=soak,shutdown", "--soak-seconds", "30"], {}).settings;
    expect(narrowed).toMatchObject({ impls: ["express"], faults: ["shutdown", "soak"], soak: { seconds: 30 } });
    expect(() => parseCli(["--impl", "expresso"], {})).toThrow(/unknown implementation expresso/);
    expect(() => parseCli(["--fault", "flood"], {})).toThrow(/unknown fault flood/);
  });

  it("refuses an option that is neither its own nor one of vitest's it passes on", () => {
    expect(() => parseCli(["--bogus"], {})).toThrow("unknown option --bogus");
    expect(() => parseCli(["--shrot"], {})).toThrow("unknown option --shrot");
    expect(() => parseCli(["--seed"], {})).toThrow("--seed needs a value");
    expect(() => parseCli(["--short", "--impl"], {})).toThrow("--impl needs a value");
    expect(() => parseCli(["--short=3"], {})).toThrow("--short takes no value");
  });

  it("passes vitest's reporting options on, as written", () => {
    const { vitestArgs } = parseCli(
      ["--short", "--reporter=json", "--outputFile.json=/tmp/r.json", "--reporter", "default", "--", "shutdown"],
      {},
    );
    expect(vitestArgs).toEqual([
      "--reporter=json",
      "--outputFile.json=/tmp/r.json",
      "--reporter",
      "default",
      "shutdown",
    ]);
  });
});

describe("the every-route round", () => {
  it("covers every route of the contract's table", async () => {
    const server = http.createServer((req, res) => {
      const status = req.method === "POST" ? 201 : req.method === "DELETE" ? 204 : 200;
      res
        .writeHead(status, { "content-type": "application/json" })
        .end(status === 204 ? undefined : '{"id":"x","token":"t"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const callers = { admin: "Bearer admin", customer: "Bearer customer" };
      const round = await runRound(url, fixtureProducts.unordered.id, { timeoutMs: 5_000, callers });
      expect([...new Set(round.covered)].sort()).toEqual([...new Set(contractRoutes())].sort());
    } finally {
      server.close();
    }
  });
});

describe("memory figures", () => {
  it("compares the mean of the first and the last quarter", () => {
    expect(quarterGrowth([100, 100, 110, 120, 130, 140, 150, 150])).toEqual({ first: 100, last: 150, growthPct: 50 });
    expect(quarterGrowth([1, 2, 3])).toBeNull();
  });

  it("reads heap-after-GC of a Node process through the preloaded probe, and its RSS", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
      env: { ...process.env, ...heapProbeEnv(port, "") },
      stdio: "ignore",
    });
    try {
      let heap: number | null = null;
      for (let i = 0; i < 100 && heap === null; i++) {
        heap = await heapAfterGc(port, child.pid ?? -1);
        if (heap === null) await new Promise((r) => setTimeout(r, 50));
      }
      expect(heap).toBeGreaterThan(1024 * 1024);
      expect(await rssOf(child.pid ?? -1)).toBeGreaterThan(heap ?? 0);
      expect(heapProbeEnv(port, "").NODE_OPTIONS).toBe(`--expose-gc --import=${JSON.stringify(HEAP_PROBE)}`);
    } finally {
      child.kill();
    }
  });
});

describe("reporting", () => {
  it("counts the links a document declares", () => {
    expect(
      declaredLinks({ paths: { "/a": { post: { responses: { 201: { links: { GetA: {}, DeleteA: {} } } } } } } }),
    ).toBe(2);
    expect(declaredLinks({ paths: {} })).toBe(0);
  });

  it("prints implementation × fault with the figures", () => {
    const table = renderTable(
      new Map([
        [
          "express",
          new Map([
            [
              "hostile-input" as const,
              {
                state: "passed" as const,
                result: {
                  impl: "express",
                  fault: "hostile-input" as const,
                  figures: {
                    fault: "hostile-input" as const,
                    requests: 250,
                    attacks: 30,
                    valid: 100,
                    mutated: 150,
                    serverErrors: 0,
                    mismatches: 0,
                    byStatus: {},
                    invariantViolations: 0,
                    seed: 1,
                  },
                },
              },
            ],
            ["soak" as const, { state: "skipped" as const }],
          ]),
        ],
      ]),
    );
    expect(table).toContain("| express        | PASS 5xx 0/250, mismatches 0 | skip |");
  });
});
