import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { implementations } from "@api-ref/harness";
import { describe, expect, it } from "vitest";
import { measurementsPerRound, targetsOfScenario } from "../src/baselines.ts";
import { parseOptions } from "../src/options/parse.ts";
import { CORE_IMPLEMENTATIONS, DECIDING_SCENARIOS, DEFAULT_RESTART } from "../src/options/table.ts";
import { type BenchOptions, UsageError } from "../src/options/types.ts";
import { estimateSeconds, planScenario, RESTART_OVERHEAD_S } from "../src/runner/cost.ts";
import { connectionsFor, SCENARIO_NAMES, scenarios } from "../src/scenarios/catalog.ts";

const parse = (...argv: string[]) => parseOptions(argv) as BenchOptions;
const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

describe("options", () => {
  it("defaults: the core implementations on the deciding scenarios, 100 connections, 2 s + 3 s, 3–10 repeats", () => {
    const o = parse();
    expect(o.impls.map((i) => i.name)).toEqual([...CORE_IMPLEMENTATIONS]);
    expect(o.scenarios).toEqual([...DECIDING_SCENARIOS]);
    expect(o).toMatchObject({
      connections: [100],
      durationS: 3,
      warmupS: 2,
      settleS: 5,
      restart: "cell",
      repeats: 3,
      maxRepeats: 10,
      precision: 0.05,
      workers: 1,
      targets: [],
      budgetMinutes: 20,
      pipelining: 1,
      scales: [1],
      rate: undefined,
      pin: true,
    });
  });

  it("smoke: a quarter second per cell, two repeats (an interval needs two), every scenario and implementation", () => {
    const o = parse("--smoke");
    expect(o).toMatchObject({ smoke: true, durationS: 0.25, repeats: 2, maxRepeats: 2, warmupS: 0, connections: [25] });
    expect(o.scenarios).toHaveLength(SCENARIO_NAMES.length);
    expect(o.impls).toHaveLength(implementations.length);
  });

  it("--all: every implementation and scenario, no budget on the repeats", () => {
    const o = parse("--all");
    expect(o.impls).toHaveLength(implementations.length);
    expect(o.scenarios).toEqual([...SCENARIO_NAMES]);
    expect(o.budgetMinutes).toBeUndefined();
    expect(() => parse("--all", "--impl", "express")).toThrow(/leave out --impl and --scenario/);
  });

  it("the default run fits 20 minutes at 3 repeats on the full cell length", () => {
    const o = parse();
    // hello and echo: 5 implementations + node-http and its A/A twin; the three database scenarios: node-http-pg,
    // its twin and node-http-prisma
    expect(o.scenarios.map((s) => targetsOfScenario(o, s).length)).toEqual([7, 7, 8, 8, 8]);
    // sequential: a cell per target; duet: a pair per target but the limit (the other side of the pairs)
    expect(o.pairing).toBe("sequential");
    expect(o.scenarios.map((s) => measurementsPerRound({ ...o, pairing: "duet" }, s))).toEqual([6, 6, 7, 7, 7]);
    // A fresh process per cell: its warm-up is the 5 s settling, and the restart costs RESTART_OVERHEAD_S.
    const plan = o.scenarios.map((s) => ({
      targets: measurementsPerRound(o, s),
      connections: 1,
      settleS: o.settleS,
      restartS: RESTART_OVERHEAD_S,
    }));
    const { min, max } = estimateSeconds(o, plan, 10);
    // 38 cells × (5 + 0.7 + 3 + 0.8) s × 3 repeats + start-up ≈ 19.4 minutes; extra repeats stop at the budget
    expect(min / 60).toBeCloseTo(19.38, 1);
    expect(max).toBe(20 * 60);
    // One process per run: 38 cells × (2 + 3 + 0.8) s × 3 + each target's 5 s settling per scenario ≈ 15.5 minutes
    const kept = o.scenarios.map((s) => ({
      targets: measurementsPerRound(o, s),
      connections: 1,
      settleS: targetsOfScenario(o, s).length * o.settleS,
    }));
    expect(estimateSeconds(o, kept, 10).min / 60).toBeCloseTo(15.52, 1);
  });

  it("pairing: duet by default, sequential where one server is measured at a time, and what goes with each", () => {
    expect(parse().pairing).toBe("sequential");
    expect(parse().pairingAsked).toBe(false);
    expect(parse("--pairing", "duet").pairing).toBe("duet");
    expect(parse("--pairing", "sequential").pairing).toBe("sequential");
    expect(parse("--pairing", "duet", "--duet-cpus", "0.3").duetCpus).toBeCloseTo(0.3);
    expect(() => parse("--pairing", "both")).toThrow(/--pairing must be one of sequential, duet, got "both"/);
    expect(() => parse("--duet-cpus", "2")).toThrow(/--duet-cpus must be a number of cores from 0.05 to 1/);
    expect(() => parse("--pairing", "sequential", "--duet-cpus", "0.3")).toThrow(
      /--duet-cpus applies to --pairing duet/,
    );
    // Fixed rates, capacity searches, profiles, limits, workers and servers elsewhere: one server at a time.
    for (const args of [
      ["--rate", "500"],
      ["--slo", "p99<50ms"],
      ["--profile"],
      ["--cpus", "0.5"],
      ["--workers", "2"],
    ]) {
      expect(parse(...args).pairing, args.join(" ")).toBe("sequential");
      expect(() => parse("--pairing", "duet", ...args), args.join(" ")).toThrow(/cannot be combined with --/);
    }
    expect(parse("--target", "express=http://127.0.0.1:3000").pairing).toBe("sequential");
    expect(parse("--disturb", "2").disturb).toBe(2);
    expect(() => parse("--disturb", "0")).toThrow(/--disturb must be an integer from 1 to 16/);
    expect(parse("--handicap", "twin,express").handicap).toEqual(["twin", "express"]);
    expect(() => parse("--handicap", "hono")).toThrow(/--handicap hono: not an implementation this run measures/);
    expect(() => parse("--impl", "elysia", "--handicap", "elysia")).toThrow(/for Node servers only/);
    // Every server settles under load before a scenario's first round; a smoke run compares nothing.
    expect(parse().settleS).toBe(5);
    expect(parse("--smoke").settleS).toBe(0);
    expect(parse("--settle", "0").settleS).toBe(0);
    expect(() => parse("--settle", "700")).toThrow(/--settle must be a number of seconds from 0 to 600/);
    // --target starts nothing: no twin, and no handicap for one.
    expect(targetsOfScenario(parse("--target", "express=http://127.0.0.1:3000"), "hello")).not.toContain(
      "node-http~aa",
    );
    expect(() => parse("--target", "express=http://127.0.0.1:3000", "--handicap", "twin")).toThrow(/not with --target/);
  });

  it("--restart: a fresh process per cell by default in a measuring run; once per run where a cell cannot have one", () => {
    expect(parse().restart).toBe(DEFAULT_RESTART);
    expect(parse("--restart", "run").restart).toBe("run");
    expect(parse("--restart", "cell").restart).toBe("cell");
    // A smoke run checks answers: one process per server unless asked.
    expect(parse("--smoke").restart).toBe("run");
    expect(parse("--smoke", "--restart", "cell").restart).toBe("cell");
    expect(() => parse("--restart", "always")).toThrow(/--restart must be one of cell, run, got "always"/);
    for (const [args, why] of [
      [["--pairing", "duet"], /--pairing duet/],
      [["--target", "express=http://127.0.0.1:3000"], /--target/],
      [["--rate", "100,200"], /a --rate list/],
      [["--slo", "p99<50ms"], /--slo/],
      [["--profile"], /--profile/],
    ] as const) {
      expect(parse(...args).restart, args.join(" ")).toBe("run");
      expect(() => parse(...args, "--restart", "cell"), args.join(" ")).toThrow(why);
    }
    // One fixed rate repeats its cells like the default mode: a fresh process per cell applies.
    expect(parse("--rate", "500").restart).toBe(DEFAULT_RESTART);
    // The plan: a new process's warm-up is its settling, and the restart is counted in the cell's cost.
    const fresh = planScenario("hello", parse("--restart", "cell"));
    const kept = planScenario("hello", parse("--restart", "run"));
    expect(fresh.warmupS).toBe(5);
    expect(kept.warmupS).toBe(2);
    expect(fresh.cellSeconds - kept.cellSeconds).toBeCloseTo(3 + RESTART_OVERHEAD_S, 5);
  });

  it("precision, workers (the pool divided among them) and targets", () => {
    expect(parse("--precision", "2%").precision).toBeCloseTo(0.02);
    expect(parse("--precision", "0.1").precision).toBeCloseTo(0.1);
    expect(parse("--precision", "3").precision).toBeCloseTo(0.03);
    expect(parse("--workers", "2", "--pool-size", "10").workers).toBe(2);
    expect(() => parse("--workers", "3")).toThrow(/--pool-size 10 cannot be divided among 3 workers/);
    const o = parse("--target", "express=http://10.0.0.2:3000/,node-http=http://10.0.0.2:3001");
    expect(o.targets).toEqual([
      { name: "express", url: "http://10.0.0.2:3000" },
      { name: "node-http", url: "http://10.0.0.2:3001" },
    ]);
    expect(o.impls.map((i) => i.name)).toEqual(["express"]);
    expect(targetsOfScenario(o, "hello")).toEqual(["node-http", "express"]);
    // A name of one's own is a server outside the repository, measured against the baselines named beside it.
    const outside = parse("--target", "my-go-impl=http://10.0.0.3:8080,node-http-pg=http://10.0.0.2:3001");
    expect(outside.impls.map((i) => [i.name, i.language, i.variant])).toEqual([["my-go-impl", "other", "external"]]);
    expect(targetsOfScenario(outside, "user-by-id")).toEqual(["node-http-pg", "my-go-impl"]);
    expect(() => parse("--target", "My Impl=http://h:1")).toThrow(/a registered name .* or a name of your own/);
    expect(() => parse("--target", "express")).toThrow(/--target takes NAME=URL/);
    expect(() => parse("--target", "express=ftp://h")).toThrow(/only http:\/\/ and https:\/\//);
    expect(() => parse("--target", "express=http://h:1", "--workers", "2")).toThrow(/--workers applies to servers/);
    expect(() => parse("--repeats", "5", "--max-repeats", "3")).toThrow(/--max-repeats 3 is below --repeats 5/);
    // A disturbed cell is run twice more by default; a smoke run and --reruns 0 keep it as measured.
    expect(parse().reruns).toBe(2);
    expect(parse("--smoke").reruns).toBe(0);
    expect(parse("--reruns", "0").reruns).toBe(0);
    expect(() => parse("--reruns", "-1")).toThrow(/--reruns/);
  });

  it("NAME[sql]: a Node implementation in DATA_ACCESS=sql mode, beside the Prisma baseline in both modes", () => {
    const o = parse("--impl", "express,fastify-zod[sql]", "--scenario", "user-by-id");
    expect(o.impls.map((i) => i.name)).toEqual(["express", "fastify-zod[sql]"]);
    expect(o.impls[1]?.start.env).toMatchObject({ DATA_ACCESS: "sql" });
    expect(targetsOfScenario(o, "user-by-id")).toEqual([
      "node-http-pg",
      "node-http-prisma",
      "node-http-prisma[sql]",
      "node-http-pg~aa",
      "express",
      "fastify-zod[sql]",
    ]);
    expect(targetsOfScenario(parse("--impl", "express", "--scenario", "user-by-id"), "user-by-id")).not.toContain(
      "node-http-prisma[sql]",
    );
    expect(() => parse("--impl", "fastapi[sql]")).toThrow(UsageError);
    expect(() => parse("--impl", "nope[sql]")).toThrow(/unknown implementation nope\[sql\]/);
  });

  it("accepts lists and explicit values", () => {
    const o = parse(
      "--scenario",
      "hello,crud-mix",
      "--connections",
      "25,300",
      "--duration",
      "2.5",
      "--repeats",
      "5",
      "--rate",
      "2000",
      "--scale",
      "2",
      "--no-pin",
    );
    expect(o).toMatchObject({
      scenarios: ["hello", "crud-mix"],
      connections: [25, 300],
      durationS: 2.5,
      repeats: 5,
      rate: 2000,
      scales: [2],
      pin: false,
    });
  });

  it.each([
    [["--bogus"], /Unknown option '--bogus'/],
    [["--scenario", "helo"], /unknown scenario helo; known: hello, health/],
    [["--impl", "expres"], /unknown implementation expres; known: .*express/],
    [["--connections", "50"], /--connections must be one of 25, 100, 200, 300, got "50"/],
    [["--connections", ""], /--connections needs at least one value/],
    [["--duration", "0"], /--duration must be a number of seconds from 0.25 to 600/],
    [["--duration", "abc"], /--duration must be/],
    [["--repeats", "1.5"], /--repeats must be an integer from 1 to 50/],
    [["--precision", "0"], /--precision must be a half-width such as 5% or 0.05/],
    [["--workers", "0"], /--workers must be an integer from 1 to 64/],
    [["--rate=-3"], /--rate must be an integer/],
    [["--pipelining", "0"], /--pipelining must be an integer from 1 to 100/],
    [["--rate", "1000", "--pipelining", "4"], /--pipelining cannot be combined with --rate/],
    [["--all", "--pipelining", "10"], /cannot apply to orders-cursor-walk, auth-register, crud-mix/],
    [["--scale", "0"], /--scale must be greater than 0/],
    [["--rate", "50", "--connections", "100"], /--rate 50 is below --connections 100/],
    [["positional"], /Unexpected argument 'positional'/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });

  it("runs the scrypt routes at 4 connections at most (hashes only queue beyond), other scenarios as asked", () => {
    expect(connectionsFor(scenarios["auth-login"], [100])).toEqual([4]);
    expect(connectionsFor(scenarios["auth-register"], [25, 100, 300])).toEqual([4]);
    expect(connectionsFor(scenarios["auth-login"], [2])).toEqual([2]);
    expect(connectionsFor(scenarios["user-by-id"], [25, 100, 300])).toEqual([25, 100, 300]);
  });

  it("measures the scrypt routes for 3 s at least, and in a smoke run (which compares nothing) a second", () => {
    const measured = (argv: string[], name: "auth-login" | "auth-register" | "user-by-id") =>
      planScenario(name, parse(...argv)).durationS;
    expect(measured(["--duration", "1"], "auth-login")).toBe(3);
    expect(measured(["--duration", "1"], "auth-register")).toBe(3);
    expect(measured(["--duration", "5"], "auth-login")).toBe(5);
    expect(measured(["--duration", "1"], "user-by-id")).toBe(1);
    expect(measured(["--smoke"], "auth-login")).toBe(1);
    expect(measured(["--smoke"], "auth-register")).toBe(1);
    expect(measured(["--smoke"], "user-by-id")).toBe(0.25);
  });

  it("the CLI prints the message and usage and exits 2 before starting anything", () => {
    const result = spawnSync(process.execPath, [CLI, "--connections", "7"], {
      encoding: "utf8",
      env: { ...process.env, PG_PROVIDER: "embedded" },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('error: --connections must be one of 25, 100, 200, 300, got "7"');
    expect(result.stderr).toContain("usage: pnpm bench");
    // Nothing was started: no PostgreSQL was provisioned for a command line that cannot run.
    expect(result.stderr).not.toContain("postgres:");
  });
});
