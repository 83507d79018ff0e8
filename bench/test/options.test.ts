import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { implementations } from "@api-ref/contract/implementations";
import { describe, expect, it } from "vitest";
import { type BenchOptions, fitToBudget, parseOptions, UsageError } from "../src/options.ts";
import { connectionsFor, SCENARIO_NAMES, scenarios } from "../src/scenarios.ts";

const parse = (...argv: string[]) => parseOptions(argv) as BenchOptions;
const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

describe("options", () => {
  it("defaults: every implementation and scenario, 100 connections, 5 s, 3 repeats", () => {
    const o = parse();
    expect(o.impls.map((i) => i.name)).toEqual(implementations.map((i) => i.name));
    expect(o.scenarios).toEqual([...SCENARIO_NAMES]);
    expect(o).toMatchObject({
      connections: [100],
      durationS: 5,
      warmupS: 2,
      repeats: 3,
      pipelining: 1,
      scale: 1,
      rate: undefined,
      pin: true,
    });
  });

  it("smoke: about a second per cell, one repeat, still every scenario and implementation", () => {
    const o = parse("--smoke");
    expect(o).toMatchObject({ smoke: true, durationS: 1, repeats: 1, warmupS: 0, connections: [25] });
    expect(o.scenarios).toHaveLength(SCENARIO_NAMES.length);
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
      scale: 2,
      pin: false,
    });
  });

  it.each([
    [["--bogus"], /Unknown option '--bogus'/],
    [["--scenario", "helo"], /unknown scenario helo; known: hello, health/],
    [["--impl", "expres"], /unknown implementation expres; known: .*express/],
    [["--connections", "50"], /--connections must be one of 25, 100, 200, 300, got "50"/],
    [["--connections", ""], /--connections needs at least one value/],
    [["--duration", "0"], /--duration must be a number of seconds from 0.5 to 600/],
    [["--duration", "abc"], /--duration must be/],
    [["--repeats", "1.5"], /--repeats must be an integer from 1 to 20/],
    [["--rate=-3"], /--rate must be an integer/],
    [["--pipelining", "0"], /--pipelining must be an integer from 1 to 100/],
    [["--rate", "1000", "--pipelining", "4"], /--pipelining cannot be combined with --rate/],
    [["--pipelining", "10"], /cannot apply to crud-mix/],
    [["--scale", "0"], /--scale must be greater than 0/],
    [["--rate", "50", "--connections", "100"], /--rate 50 is below --connections 100/],
    [["positional"], /Unexpected argument 'positional'/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });

  it("fits a default run into its 15-minute budget, never below 1 s per cell", () => {
    const o = parse();
    expect(o.budgetMinutes).toBe(15);
    // one implementation: 11 scenarios × 2 targets × 3 repeats = 66 cells fit at 2 s + 5 s
    expect(fitToBudget(o, 3, 66)).toMatchObject({ warmupS: 2, durationS: 5 });
    // nine: 330 cells; (900 s − 20 − 6 × 11) / 330 − 0.8 ≈ 1.67 s per cell, split 2:5 (warm-up at least 0.5 s)
    expect(fitToBudget(o, 11, 330)).toMatchObject({ warmupS: 0.5, durationS: 1.2 });
    // … of which 30 auth-login cells are 3 s whatever: (900 − 86 − 30 × (3 + 0.5 + 0.8)) / 300 − 0.8 ≈ 1.48 s
    expect(fitToBudget(o, 11, 300, { cells: 30, measuredSeconds: 90 })).toMatchObject({ warmupS: 0.5, durationS: 1.1 });
    expect(fitToBudget(o, 50, 5000)).toMatchObject({ warmupS: 0.5, durationS: 1 });
    // an explicit duration is taken as asked
    const explicit = parse("--duration", "5");
    expect(explicit.budgetMinutes).toBeUndefined();
    expect(fitToBudget(explicit, 11, 330).durationS).toBe(5);
    expect(() => parse("--budget", "10", "--duration", "3")).toThrow(/--budget applies to runs without --duration/);
  });

  it("runs auth-login at 16 connections at most (scrypt logins only queue beyond), other scenarios as asked", () => {
    expect(connectionsFor(scenarios["auth-login"], [100])).toEqual([16]);
    expect(connectionsFor(scenarios["auth-login"], [25, 100, 300])).toEqual([16]);
    expect(connectionsFor(scenarios["user-by-id"], [25, 100, 300])).toEqual([25, 100, 300]);
  });

  it("the CLI prints the message and usage and exits 2 before starting anything", () => {
    const started = Date.now();
    const result = spawnSync(process.execPath, [CLI, "--connections", "7"], {
      encoding: "utf8",
      env: { ...process.env, PG_PROVIDER: "embedded" },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('error: --connections must be one of 25, 100, 200, 300, got "7"');
    expect(result.stderr).toContain("usage: pnpm bench");
    expect(result.stderr).not.toContain("postgres:");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
