// --rate lists and ramps, --slo and --cpus/--memory: parsing (good and bad values), a ramp and a capacity search
// against a server whose capacity the test sets (it serves one request at a time, each taking a fixed service
// time: capacity = 1000 / serviceMs requests/s), and the control groups the servers are limited by.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectLayout, groupProcesses, removeOrphanGroups, ServerLimits } from "../src/limits.ts";
import { LoadGenerator } from "../src/load/generator.ts";
import { parseOptions } from "../src/options/parse.ts";
import { UsageError } from "../src/options/types.ts";
import { parseMemory, parseRates, parseSlo } from "../src/options/values.ts";
import { Progress } from "../src/progress.ts";
import { capacityMarkdown, curveChart, curveMarkdown } from "../src/report/load-shapes.ts";
import type { Results } from "../src/results/schema.ts";
import { nextRate, RESOLUTION, searchCapacity } from "../src/runner/capacity.ts";
import { runScenario } from "../src/runner/scenario.ts";
import { keptUp } from "../src/runner/sweep.ts";
import type { ScenarioRunContext } from "../src/runner/types.ts";
import type { Pools } from "../src/scenarios/catalog.ts";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

describe("--rate lists and ramps", () => {
  it.each([
    ["500", [500]],
    ["100,500,1000", [100, 500, 1000]],
    ["10..1500x8", [10, 223, 436, 649, 861, 1074, 1287, 1500]],
    ["100..200x2", [100, 200]],
  ])("reads %s", (raw, rates) => {
    expect(parseRates(raw)).toEqual(rates);
  });

  it.each([
    ["10..", /ramp is FROM..TOxSTEPS/],
    ["x8", /ramp is FROM..TOxSTEPS/],
    ["0", /--rate must be an integer from 1/],
    ["5..1x3", /must go up/],
    ["10..100x1", /from 2 to 50 steps/],
    ["-5", /--rate must be an integer/],
    ["abc", /--rate must be an integer/],
    ["100,100", /names a rate twice/],
    ["1..3x5", /repeat a rate/],
  ])("refuses %s", (raw, message) => {
    expect(() => parseRates(raw)).toThrow(UsageError);
    expect(() => parseRates(raw)).toThrow(message);
  });

  it("keeps one rate as --rate and a list as rates", () => {
    expect(parseOptions(["--rate", "500"])).toMatchObject({ rate: 500, rates: undefined });
    expect(parseOptions(["--rate", "100..400x4"])).toMatchObject({ rate: undefined, rates: [100, 200, 300, 400] });
    expect(() => parseOptions(["--rate", "50,200", "--connections", "100"])).toThrow(/--rate 50 is below/);
  });

  it("the CLI exits 2 with the reason for a malformed ramp", () => {
    const result = spawnSync(process.execPath, [CLI, "--rate", "10..100x1"], { encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("error: --rate ramp needs from 2 to 50 steps");
  });
});

describe("--slo, --cpus and --memory", () => {
  it.each([
    ["p99<50ms", { percentile: 99, boundMs: 50 }],
    ["p50<2s", { percentile: 50, boundMs: 2000 }],
    ["p99.9<800us", { percentile: 99.9, boundMs: 0.8 }],
    ["p95 < 10ms", { percentile: 95, boundMs: 10 }],
  ])("reads %s", (raw, slo) => {
    expect(parseSlo(raw)).toEqual(slo);
  });

  it.each(["p98<50ms", "p99<50", "p99>50ms", "99<50ms", "p99<0ms", "p99<50min"])("refuses --slo %s", (raw) => {
    expect(() => parseSlo(raw)).toThrow(UsageError);
  });

  it("reads sizes and refuses what is not one", () => {
    expect(parseMemory("256M")).toBe(256 * 1024 ** 2);
    expect(parseMemory("1G")).toBe(1024 ** 3);
    expect(parseMemory("512MiB")).toBe(512 * 1024 ** 2);
    for (const bad of ["", "lots", "1M", "-256M", "256T"]) expect(() => parseMemory(bad)).toThrow(UsageError);
    expect(parseOptions(["--cpus", "0.5", "--memory", "256M"])).toMatchObject({
      cpus: 0.5,
      memoryBytes: 256 * 1024 ** 2,
    });
    expect(() => parseOptions(["--cpus", "0"])).toThrow(/--cpus must be a number of cores/);
    expect(() => parseOptions(["--slo", "p99<50ms", "--rate", "100"])).toThrow(/leave out --rate/);
  });
});

describe("the capacity search", () => {
  it("doubles until a probe fails, bisects to the resolution, and steps down when the full run fails", async () => {
    const capacity = 730;
    const seen: Array<[number, boolean]> = [];
    // A server that holds below 730 req/s in a probe, but only below 700 over a full-length run.
    const found = await searchCapacity(async (rate, full) => {
      seen.push([rate, full]);
      const passed = rate < (full ? 700 : capacity);
      return { rate, passed, latencyMs: passed ? 5 : 500 };
    }, 100);
    const probes = seen.filter(([, full]) => !full).map(([r]) => r);
    expect(probes.slice(0, 5)).toEqual([100, 200, 400, 800, 600]);
    const lastPassed = Math.max(...probes.filter((r) => r < capacity));
    const firstFailed = Math.min(...probes.filter((r) => r >= capacity));
    expect(firstFailed - lastPassed).toBeLessThanOrEqual(lastPassed * RESOLUTION);
    expect(found.confirmed).toBe(true);
    expect(found.rate).toBeLessThan(700);
    expect(found.note).toMatch(/did not hold over a full-length run; stepped down/);
    expect(nextRate(0, 1)).toBeUndefined();
  });
});

/** Serves GET / one request at a time, each taking serviceMs (a virtual queue: no drift from timer lateness). */
function serialServer(serviceMs: number) {
  let free = 0;
  return http.createServer((_req, res) => {
    const now = performance.now();
    free = Math.max(now, free) + serviceMs;
    setTimeout(
      () => {
        res.writeHead(200, { "content-type": "text/plain", "x-request-id": randomUUID() });
        res.end("Hello World!");
      },
      Math.max(0, free - now),
    );
  });
}

describe("against a server of known capacity (20 req/s)", () => {
  // Slow enough that a busy shared machine (other test files, other work) does not change its capacity.
  const SERVICE_MS = 50;
  const CAPACITY = 1000 / SERVICE_MS;
  let server: http.Server;
  let url: string;
  let loadGenerator: LoadGenerator;
  const pools = {} as Pools;

  beforeAll(async () => {
    server = serialServer(SERVICE_MS);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    loadGenerator = new LoadGenerator(undefined);
  });
  afterAll(async () => {
    loadGenerator.close();
    await new Promise((r) => server.close(r));
  });

  const context = (
    options: Partial<ScenarioRunContext["options"]>,
    logs: string[],
    progress = new Progress(),
  ): ScenarioRunContext => ({
    pools,
    seed: 3,
    options: {
      connections: [10],
      repeats: 1,
      maxRepeats: 1,
      precision: 0.05,
      warmupS: 0,
      durationS: 4,
      rate: undefined,
      pipelining: 1,
      verifySample: 2,
      smoke: false,
      reruns: 0,
      ...options,
    },
    loadGenerator,
    io: { progress, log: (m) => logs.push(m) },
    counter: { cell: 0, total: 10 },
  });

  it("a ramp keeps up below the capacity and marks the step above it", async () => {
    const logs: string[] = [];
    const lines: string[] = [];
    const stream = { isTTY: false, write: (line: string) => lines.push(line) } as unknown as NodeJS.WriteStream;
    const progress = new Progress(stream);
    const outcome = await runScenario("hello", [{ name: "serial", url }], context({ rates: [10, 40] }, logs, progress));
    // each step's progress line names its offered rate (a step is not a repeat)
    expect(lines.join("")).toMatch(/hello @10 · serial · offered 40 req\/s · /);
    expect(lines.join("")).not.toMatch(/repeat \d/);
    expect(outcome.cells).toEqual([]);
    expect(outcome.curve.map((c) => [c.rate, c.failure])).toEqual([
      [10, undefined],
      [40, undefined],
    ]);
    const [below, above] = outcome.curve;
    expect(below && keptUp(below)).toBe(true);
    expect(above && keptUp(above)).toBe(false);
    expect(logs.join("\n")).toMatch(/hello @40 req\/s: serial .*fell behind/);

    const results = { curve: outcome.curve, summary: [] } as unknown as Results;
    const md = curveMarkdown(results).join("\n");
    expect(md).toMatch(/\| serial \| 10 \| .* \| ok \|/);
    expect(md).toMatch(/\| serial \| 40 \| .* \| fell behind \|/);
    // one inline SVG: p50 and p99 lines, the step that fell behind drawn hollow; nothing fetched
    const svg = curveChart("hello", outcome.curve);
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/class="step behind"/g)).toHaveLength(1);
    expect(svg).not.toMatch(/<script|href=/);
  }, 60_000);

  it("--slo finds the server's capacity within the search's resolution, confirmed by a full-length run", async () => {
    const logs: string[] = [];
    // p90, not p99: a probe at 20 req/s has 80 requests, and on a shared machine one stall of the load
    // generator alone would decide a p99 (the search's behaviour is the point here, not the machine's quiet).
    // Above capacity the queue grows by (rate - 20) / 20 s per second: at +10% the last requests of a 4 s probe
    // wait 0.4 s, beyond the bound.
    const slo = { percentile: 90, boundMs: 250 };
    const outcome = await runScenario("hello", [{ name: "serial", url }], context({ slo }, logs));
    const [found] = outcome.capacity;
    expect(found?.confirmed, logs.join("\n")).toBe(true);
    expect(Math.abs((found?.rate ?? 0) - CAPACITY), logs.join("\n")).toBeLessThanOrEqual(CAPACITY * RESOLUTION);
    expect(found?.probes.at(-1)?.confirmation).toBe(true);
    // the throughput cells were measured first, and the capacity sits beside them in the report
    expect(outcome.cells).toHaveLength(1);
    expect(logs.some((l) => /probe \d+ req\/s → (holds|does not hold)/.test(l))).toBe(true);
    const md = capacityMarkdown({ capacity: outcome.capacity, summary: [] } as unknown as Results).join("\n");
    expect(md).toContain(`| hello | serial | 10 | ${found?.rate} |`);
  }, 180_000);
});

describe("--cpus/--memory control groups", () => {
  const layout = detectLayout();
  const reason = "error" in layout ? layout.error : "";
  let child: ChildProcess | undefined;
  afterAll(() => child?.kill("SIGKILL"));

  it.skipIf("error" in layout)(
    `puts the server in a group with the quota and limit, and removes it (${reason || "cgroups usable"})`,
    async () => {
      const limits = new ServerLimits({ cpus: 0.5, memoryBytes: 256 * 1024 ** 2 });
      const group = limits.create("test-server");
      const impl = limits.wrap(
        {
          name: "x",
          framework: "x",
          variant: "x",
          language: "typescript",
          runtime: "node",
          dir: "",
          start: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] },
        },
        group,
      );
      child = spawn(impl.start.command, impl.start.args, { stdio: "ignore" });
      const pid = child.pid as number;
      // the server (the same pid: the shell execs it) is in each of the group's directories
      for (let i = 0; i < 50 && !group.dirs.every((d) => groupProcesses(d).includes(pid)); i++)
        await new Promise((r) => setTimeout(r, 20));
      for (const dir of group.dirs) expect(groupProcesses(dir)).toContain(pid);
      const own = readFileSync(`/proc/${pid}/cgroup`, "utf8");
      expect(own).toContain(group.name);
      if (limits.layout.version === 1) {
        const [cpu, memory] = group.dirs as [string, string];
        expect(readFileSync(`${cpu}/cpu.cfs_quota_us`, "utf8").trim()).toBe("50000");
        expect(readFileSync(`${cpu}/cpu.cfs_period_us`, "utf8").trim()).toBe("100000");
        expect(Number(readFileSync(`${memory}/memory.limit_in_bytes`, "utf8"))).toBe(256 * 1024 ** 2);
      } else {
        const [dir] = group.dirs as [string];
        expect(readFileSync(`${dir}/cpu.max`, "utf8").trim()).toBe("50000 100000");
        expect(readFileSync(`${dir}/memory.max`, "utf8").trim()).toBe(String(256 * 1024 ** 2));
      }
      expect(group.oomKills()).toBe(0);
      limits.removeAll();
      for (const dir of group.dirs) expect(existsSync(dir)).toBe(false);
      await new Promise((r) => child?.once("exit", r));
      expect(child.signalCode).toBe("SIGKILL");
    },
  );

  it.skipIf("error" in layout)(
    `removes the groups of a run that was killed, and stops the server left in them (${reason || "cgroups usable"})`,
    async () => {
      if ("error" in layout) return;
      const parents = layout.version === 2 ? [layout.parent] : [layout.cpu, layout.memory];
      // A run that no longer exists: a process that has exited, whose pid names the group.
      const gone = spawnSync(process.execPath, ["-e", "process.pid"]).pid;
      const orphans = parents.map((p) => join(p, `api-ref-bench-${gone}-left-over`));
      const alive = parents.map((p) => join(p, `api-ref-bench-${process.pid}-still-running`));
      const server = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      for (const dir of [...orphans, ...alive]) mkdirSync(dir);
      for (const dir of orphans) writeFileSync(`${dir}/cgroup.procs`, String(server.pid));
      try {
        expect(removeOrphanGroups(parents).sort()).toEqual([...orphans].sort());
        for (const dir of orphans) expect(existsSync(dir)).toBe(false);
        for (const dir of alive) expect(existsSync(dir)).toBe(true);
        if (server.exitCode === null && server.signalCode === null) await new Promise((r) => server.once("exit", r));
        expect(server.signalCode).toBe("SIGKILL");
      } finally {
        server.kill("SIGKILL");
        for (const dir of [...orphans, ...alive]) if (existsSync(dir)) rmdirSync(dir);
      }
    },
  );

  it.skipIf(!("error" in layout))("refuses (exit 2) where the machine cannot create groups", () => {
    const result = spawnSync(process.execPath, [CLI, "--smoke", "--scenario", "hello", "--cpus", "0.5"], {
      encoding: "utf8",
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--cpus/--memory cannot be applied");
  });
});
