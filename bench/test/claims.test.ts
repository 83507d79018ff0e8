// The published-claims presets, their claims tables and the verdict function. The tables are built here from a
// fake results object (every preset); the real end-to-end run of every preset is CI's bench smoke stage.
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { extractPresetArgs, resolvePreset, smokeRates } from "../src/claims/cli.ts";
import { AUTH_CHANGE, loadClaims, PRESET_IDS, PRESETS, ramp } from "../src/claims/presets.ts";
import { claimsMarkdown, claimsTable } from "../src/claims/table.ts";
import { EVEN_BAND, HOLD_TOLERANCE, VERDICTS, verdictOf, WIDE } from "../src/claims/verdict.ts";
import { UsageError } from "../src/options/types.ts";
import type { CellResult, Results } from "../src/results/schema.ts";
import { checkRegistered, registerStep, SCENARIO_NAMES, scenarios } from "../src/scenarios/catalog.ts";

const claims = loadClaims();

describe("presets", () => {
  it("there is exactly one preset per published claim", () => {
    expect([...PRESET_IDS].sort()).toEqual(claims.map((c) => c.id).sort());
  });

  for (const preset of PRESETS) {
    it(`${preset.id} resolves to valid options, with the article's frameworks and our baselines' scenarios`, () => {
      const run = resolvePreset(preset.id, []);
      const impls = run.options.impls.map((i) => i.name);
      for (const ours of Object.values(preset.frameworks).flat()) expect(impls).toContain(ours);
      for (const scenario of run.options.scenarios) expect(SCENARIO_NAMES).toContain(scenario);
      expect(run.options.scenarios.sort()).toEqual([...new Set(Object.values(preset.routes))].sort());
      expect(run.options.workers).toBeLessThanOrEqual(Math.max(1, availableParallelism()));
      expect(run.options.smoke).toBe(false);
      expect(run.options.repeats).toBeGreaterThanOrEqual(2);
      expect(run.notes.length).toBeGreaterThan(0);
    });

    it(`${preset.id} composes with --smoke (smoke's cell lengths, the preset's selection)`, () => {
      const run = resolvePreset(preset.id, ["--smoke"]);
      expect(run.options.smoke).toBe(true);
      expect(run.options.durationS).toBe(0.25);
      expect(run.options.connections).toEqual([25]);
      expect(run.options.impls.map((i) => i.name).sort()).toEqual(
        resolvePreset(preset.id, [])
          .options.impls.map((i) => i.name)
          .sort(),
      );
    });
  }

  it("explicit options win over the preset's, and the run says so", () => {
    const run = resolvePreset("four-frameworks-hello", ["--duration", "7", "--impl", "express,koa"]);
    expect(run.options.durationS).toBe(7);
    expect(run.options.impls.map((i) => i.name)).toEqual(["express", "koa"]);
    expect(run.notes).toContain("--duration given explicitly: it wins over the preset's");
    expect(run.notes).toContain("--impl given explicitly: it wins over the preset's");
  });

  it("the template-server preset sets a fixed-rate ramp and the containers' limits", () => {
    const run = resolvePreset("express-fastify-template-ramp", []);
    expect(run.options.rates).toEqual([25, 50, 75]);
    expect(run.options.cpus).toBe(0.5);
    expect(run.options.memoryBytes).toBe(256 * 1024 * 1024);
    expect(ramp(10, 1500, 8)).toHaveLength(8);
  });

  it("a smoke run offers a tenth of the preset's rates, and says so; an explicit --rate still wins", () => {
    const smoke = resolvePreset("express-fastify-template-ramp", ["--smoke"]);
    expect(smoke.options.rates).toEqual([3, 5, 8]);
    expect(smoke.notes).toContain("--smoke: offered rates a tenth of the preset's (3, 5, 8 requests/s)");
    expect(smokeRates([1, 4, 5])).toEqual([1]);
    const explicit = resolvePreset("express-fastify-template-ramp", ["--smoke", "--rate", "30,60"]);
    expect(explicit.options.rates).toEqual([30, 60]);
  });
});

describe("--preset and --claims usage", () => {
  it("a preset whose article names Express 4 measures express4; every other one, Express 5 (express)", () => {
    for (const claim of claims) {
      const preset = PRESETS.find((p) => p.id === claim.id);
      if (!preset) throw new Error(`no preset for ${claim.id}`);
      if (!JSON.stringify(claim.figures).includes('"express"')) continue;
      const ours = preset.frameworks.express ?? ["express"];
      const names = resolvePreset(claim.id, []).options.impls.map((i) => i.name);
      const express4 = /Express 4/.test(claim.setup.versions ?? "");
      expect(ours, claim.id).toEqual([express4 ? "express4" : "express"]);
      expect(names, claim.id).toContain(express4 ? "express4" : "express");
      expect(names, claim.id).not.toContain(express4 ? "express" : "express4");
    }
  });
  it("a preset that measures routes needing a caller says the article's had no authentication; no other says so", () => {
    for (const claim of claims) {
      const preset = PRESETS.find((p) => p.id === claim.id);
      if (!preset) throw new Error(`no preset for ${claim.id}`);
      const signsIn = resolvePreset(claim.id, []).options.scenarios.some((s) => scenarios[s].caller !== undefined);
      // The published setups name no authentication on any measured route (register and login are public here too).
      expect(JSON.stringify(claim.setup), claim.id).not.toMatch(/bearer|jwt|token|authenticat/i);
      expect(preset.changes.includes(AUTH_CHANGE), claim.id).toBe(signsIn);
      expect(resolvePreset(claim.id, ["--smoke"]).notes.includes(AUTH_CHANGE), claim.id).toBe(signsIn);
    }
    expect(PRESETS.some((p) => p.changes.includes(AUTH_CHANGE))).toBe(true);
  });
  it("a preset with a rate list keeps one process per server, as an explicit --rate list does", () => {
    const withRates = PRESETS.filter((p) => p.fields?.rates);
    expect(withRates.length).toBeGreaterThan(0);
    for (const preset of withRates) {
      expect(resolvePreset(preset.id, []).options.restart, preset.id).toBe("run");
      expect(() => resolvePreset(preset.id, ["--restart", "cell"])).toThrow(UsageError);
    }
    for (const preset of PRESETS.filter((p) => !p.fields?.rates)) {
      expect(resolvePreset(preset.id, []).options.restart, preset.id).toBe("cell");
    }
  });
  it("an unknown preset is a usage error listing the ids", () => {
    expect(() => extractPresetArgs(["--preset", "nope"])).toThrow(UsageError);
    expect(() => extractPresetArgs(["--preset", "nope"])).toThrow(PRESET_IDS.join(", "));
  });
  it("--preset without an id, twice, or with --claims is a usage error", () => {
    expect(() => extractPresetArgs(["--preset"])).toThrow(/needs an id/);
    expect(() => extractPresetArgs(["--preset", "--smoke"])).toThrow(/needs an id/);
    expect(() => extractPresetArgs(["--preset", PRESET_IDS[0] as string, "--preset=x"])).toThrow(/twice/);
    expect(() => extractPresetArgs(["--claims", "--preset", PRESET_IDS[0] as string])).toThrow(/--claims/);
  });
  it("--claims selects every preset and passes the other options through", () => {
    expect(extractPresetArgs(["--claims", "--smoke"])).toEqual({
      presets: PRESET_IDS,
      claims: true,
      rest: ["--smoke"],
    });
    expect(extractPresetArgs(["--preset=four-frameworks-hello"]).presets).toEqual(["four-frameworks-hello"]);
  });
  it("a bad explicit option beside a preset is the ordinary usage error", () => {
    expect(() => resolvePreset("four-frameworks-hello", ["--duration", "0"])).toThrow(/--duration/);
  });
});

describe("verdictOf", () => {
  const at = (value: number, low = Number.NaN, high = Number.NaN) => ({ value, low, high });
  it("holds within ±HOLD_TOLERANCE or when the interval contains the claim", () => {
    expect(verdictOf(2, at(2 * (1 + HOLD_TOLERANCE * 0.9)))).toBe("holds");
    expect(verdictOf(2, at(1.5, 1.2, 2.1))).toBe("holds");
    // The article saw no difference and neither can we: holds.
    expect(verdictOf(1.02, at(1.3, 0.9, 1.8))).toBe("holds");
    expect(verdictOf(0.86, at(0.8))).toBe("holds");
  });
  it("holds in direction only when the same side of 1 but smaller", () => {
    expect(verdictOf(7.2, at(1.38, 1.3, 1.45))).toBe("holds in direction only");
    expect(verdictOf(0.25, at(0.7, 0.65, 0.75))).toBe("holds in direction only");
  });
  it("does not hold on the other side of 1, or with no difference measured", () => {
    expect(verdictOf(7.2, at(0.91, 0.85, 0.97))).toBe("does not hold");
    expect(verdictOf(1.3, at(1.02, 0.9, 1.1))).toBe("does not hold");
    expect(verdictOf(1.3, at(1 + EVEN_BAND / 2, 1, 1 + EVEN_BAND))).toBe("does not hold");
    // The article saw no difference; we see a large one.
    expect(verdictOf(1.0, at(2, 1.9, 2.1))).toBe("does not hold");
  });
  it("can't tell where it would not hold but the interval contains the claim or is wider than ±WIDE", () => {
    // An interval that holds both the claim and "no difference" confirms nothing either way.
    expect(verdictOf(1.23, at(0.92, 0.47, 1.79))).toBe("can't tell");
    expect(verdictOf(2, at(1.02, 0.9, 2.5))).toBe("can't tell");
    // ±30%, all of it on the other side of 1 from the claim, the claim outside it.
    expect(verdictOf(2, at(0.7, 0.7 / 1.3, 0.7 * 1.3))).toBe("can't tell");
    expect(verdictOf(0.5, at(1.5, 1.5 / (1 + WIDE + 0.01), 1.5 * (1 + WIDE + 0.01)))).toBe("can't tell");
    // The same, on a narrow interval: does not hold.
    expect(verdictOf(2, at(0.7, 0.7 / 1.1, 0.7 * 1.1))).toBe("does not hold");
    expect(verdictOf(0.5, at(1.5, 1.5 / (1 + WIDE - 0.01), 1.5 * (1 + WIDE - 0.01)))).toBe("does not hold");
  });
  it("never says does not hold on an interval that contains the claim or is wider than ±WIDE", () => {
    for (const claimed of [0.2, 0.5, 0.9, 1, 1.1, 2, 7.2]) {
      for (const value of [0.1, 0.3, 0.7, 0.95, 1, 1.05, 1.4, 3, 9]) {
        for (const half of [0.02, 0.1, 0.2, 0.26, 0.5, 2]) {
          const measured = at(value, value / (1 + half), value * (1 + half));
          const verdict = verdictOf(claimed, measured);
          expect(VERDICTS).toContain(verdict);
          if (verdict !== "does not hold") continue;
          expect(half).toBeLessThanOrEqual(WIDE);
          expect(claimed < measured.low || claimed > measured.high).toBe(true);
        }
      }
    }
  });
  it("can't tell on a single figure (no interval), however far from the claim; it may still hold", () => {
    expect(verdictOf(1.3, at(1 + EVEN_BAND / 2))).toBe("can't tell");
    expect(verdictOf(0.54, at(1.08))).toBe("can't tell");
    expect(verdictOf(7.2, at(0.5))).toBe("can't tell");
    expect(verdictOf(0.86, at(0.8))).toBe("holds");
  });
  it("not measured here without a measured ratio", () => {
    expect(verdictOf(2, at(Number.NaN))).toBe("not measured here");
  });
});

/** A fake run: every target of a preset on every scenario and connection count, 3 repeats, Fastify-like 2× Express. */
function fakeResults(presetId: string): Results {
  const run = resolvePreset(presetId, []);
  const speed: Record<string, number> = {
    express: 1,
    express4: 1,
    "fastify-zod": 2,
    koa: 1.8,
    hapi: 1.5,
    fastapi: 1.1,
  };
  const cells: CellResult[] = [];
  for (const scenario of run.options.scenarios)
    for (const connections of run.options.connections)
      for (const impl of run.options.impls)
        for (let repeat = 1; repeat <= 3; repeat++) {
          const s = (speed[impl.name] ?? 1.2) * (1 + repeat / 100);
          cells.push({
            scenario,
            connections,
            repeat,
            target: impl.name,
            position: 0,
            outcome: {
              durationS: 1,
              completed: 1000 * s,
              requestsPerSecond: 1000 * s,
              statusCounts: {},
              non2xx: 0,
              errors: 0,
              timeouts: 0,
              latency: { p50: 10 / s, p90: 15 / s, p95: 17 / s, p99: 20 / s, max: 30, mean: 11, count: 1000 },
            },
            server: { cpuCores: 0.9, cpuSeconds: 1, peakRssBytes: 80e6 * s, cpuMicrosPerRequest: 900 / s },
            // --restart cell: each cell's own start-up (the slower framework starts slower here).
            startupMs: (300 / (speed[impl.name] ?? 1)) * (1 + repeat / 50),
          });
        }
  return {
    options: {},
    versions: { node: "v24.0.0" },
    targets: run.options.impls.map((i) => ({
      name: i.name,
      role: "implementation",
      framework: i.framework,
      variant: i.variant,
      language: i.language,
      startupMs: 300 / (speed[i.name] ?? 1),
      versions: i.name === "express" ? { express: "5.1.0" } : {},
    })),
    cells,
    summary: [],
    split: [],
  } as unknown as Results;
}

describe("claims table", () => {
  for (const claim of claims) {
    it(`${claim.id}: a row per published figure, each with a verdict (fake results)`, () => {
      const preset = PRESETS.find((p) => p.id === claim.id);
      if (!preset) throw new Error(`no preset for ${claim.id}`);
      const table = claimsTable(fakeResults(claim.id), claim, preset);
      for (const figure of Object.keys(claim.figures)) {
        expect(table.rows.some((r) => r.figure === figure || r.figure.startsWith(`${figure} (`))).toBe(true);
      }
      for (const row of table.rows) {
        expect(VERDICTS).toContain(row.verdict);
        if (row.verdict !== "not measured here") expect(row.measured.text).not.toBe("–");
        else expect(row.reasons.join(" ")).not.toBe("");
      }
      expect(claimsMarkdown(table, preset).join("\n")).toContain("Claimed vs measured here");
    });
  }

  it("compares the right frameworks and reads the article's and our ratios", () => {
    const claim = claims.find((c) => c.id === "fastify-express-prisma-crud");
    const preset = PRESETS.find((p) => p.id === "fastify-express-prisma-crud");
    if (!claim || !preset) throw new Error("missing");
    const table = claimsTable(fakeResults(claim.id), claim, preset);
    const rps = table.rows.find((r) => r.figure === "rps_avg");
    // The article measured Express 4, and so does its preset: the express4 row, with no "Express 5 here" caveat.
    expect(rps?.comparison).toBe("fastify ÷ express (fastify-zod ÷ express4)");
    expect(rps?.claimed.ratio).toBeCloseTo(15320 / 2140, 5);
    expect(rps?.measured.ratio?.value).toBeCloseTo(2, 1);
    expect(rps?.verdict).toBe("holds in direction only");
    expect(rps?.reasons.join(" ")).not.toContain("Express 4 in the article");
    const p95 = table.rows.find((r) => r.figure === "p95_ms");
    expect(p95?.claimed.ratio).toBeCloseTo(12.4 / 89, 5);
    expect(p95?.measured.ratio?.value).toBeGreaterThan(0);
  });

  it("says can't tell, and why, where repeats disagree too much to decide", () => {
    const claim = claims.find((c) => c.id === "four-frameworks-hello");
    const preset = PRESETS.find((p) => p.id === claim?.id);
    if (!claim || !preset) throw new Error("missing");
    const results = fakeResults(claim.id);
    // Koa's three repeats: 0.5×, 1× and 3× Express's requests/s — a geometric mean of 1.1 and an interval of ±1000%.
    for (const cell of results.cells) {
      if (cell.target !== "koa" || !cell.outcome) continue;
      cell.outcome.requestsPerSecond = 1000 * (1 + cell.repeat / 100) * ([0.5, 1, 3][cell.repeat - 1] as number);
    }
    const koa = claimsTable(results, claim, preset).rows.find(
      (r) => r.figure === "rps" && r.comparison === "koa ÷ express",
    );
    expect(koa?.verdict).toBe("can't tell");
    expect(koa?.reasons.join("; ")).toMatch(/the 95% interval is ±\d+%: too few or too short repeats to tell/);
    expect(koa?.reasons.join("; ")).toContain("the 95% interval contains both the article's ratio and 1");
  });

  it("pairs the start-ups of fresh processes by repeat (--restart cell), else says one start-up has no interval", () => {
    const claim = claims.find((c) => c.id === "fastify-express-prisma-crud");
    const preset = PRESETS.find((p) => p.id === claim?.id);
    if (!claim || !preset) throw new Error("missing");
    const startupRow = (results: Results) =>
      claimsTable(results, claim, preset).rows.find((r) => r.figure === "startup_ms");
    const fresh = startupRow(fakeResults(claim.id));
    // fastify-zod starts in half express4's time in every repeat: 0.5× with a narrow interval around it.
    expect(fresh?.measured.ratio?.value).toBeCloseTo(0.5, 5);
    expect(fresh?.measured.ratio?.n).toBe(3);
    expect(fresh?.measured.text).toMatch(/^0\.50× \[0\.50–0\.50\]$/);
    expect(fresh?.reasons.join(" ")).not.toContain("no interval");
    // One process per run: the targets' single start-ups, a ratio without an interval, and no "does not hold".
    const once = fakeResults(claim.id);
    for (const cell of once.cells) delete cell.startupMs;
    // …where fastify-zod started a little slower than express4 (the article: 0.54×).
    for (const t of once.targets) t.startupMs = t.name === "fastify-zod" ? 324 : 300;
    const single = startupRow(once);
    expect(single?.measured.text).toBe("1.08× (one pair: no interval)");
    expect(single?.verdict).toBe("can't tell");
    expect(single?.reasons).toContain("one start-up per implementation: no interval");
  });

  it("says when the article ran at a fixed rate and this run did not", () => {
    const claim = claims.find((c) => c.id === "fastapi-express-nest-health");
    const preset = PRESETS.find((p) => p.id === claim?.id);
    if (!claim || !preset) throw new Error("missing");
    const results = { ...fakeResults(claim.id), options: { rate: null, rates: null } } as unknown as Results;
    const p99 = claimsTable(results, claim, preset).rows.find(
      (r) => r.figure === "p99_ms_at_50k" && r.comparison.startsWith("fastapi"),
    );
    expect(p99?.verdict).toBe("holds in direction only");
    expect(p99?.reasons).toContain("the article measured at a fixed rate; this run at max throughput");
  });
});

describe("auth-register scenario", () => {
  const token = (sub: string) => `x.${Buffer.from(JSON.stringify({ sub })).toString("base64url")}.y`;
  it("sends a fresh e-mail every request", () => {
    const step = registerStep("password-123");
    const a = JSON.parse(step.build({}, undefined as never).body ?? "{}");
    const b = JSON.parse(step.build({}, undefined as never).body ?? "{}");
    expect(a.email).not.toBe(b.email);
  });
  it("accepts the new user and a token for it, rejects a wrong answer", () => {
    const user = { id: "u1", email: "a@example.com", name: "Bench Register" };
    expect(checkRegistered({ user, token: token("u1") }, "a@example.com", "Bench Register")).toBeUndefined();
    expect(checkRegistered({ user, token: token("u1") }, "b@example.com", "Bench Register")).toMatch(/email/);
    expect(checkRegistered({ user, token: token("u2") }, "a@example.com", "Bench Register")).toMatch(/sub/);
    expect(checkRegistered({ user, token: "not-a-jwt" }, "a@example.com", "Bench Register")).toMatch(/JWT|sub/);
  });
});
