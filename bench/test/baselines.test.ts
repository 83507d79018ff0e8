// The no-framework baselines — every runtime's — pass the verification of every scenario they are a baseline of, on
// a real seeded database: a ratio to a baseline that answers wrongly would mean nothing. A baseline whose runtime has
// no binary here is left out, as a run leaves it out. BASELINES_ONLY=a,b runs only those (a quicker look at one).
import { randomBytes } from "node:crypto";
import { type PostgresServer, prepareTemplate, provisionPostgres } from "@api-ref/db/provision";
import { build, launch, type RunningImplementation } from "@api-ref/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restock, samplePools } from "../src/run.ts";
import { createRng, type Pools, SCENARIO_NAMES, scenarios } from "../src/scenarios.ts";
import { BASELINES as ALL } from "../src/targets.ts";
import { verifyScenario } from "../src/verify.ts";

const only = process.env.BASELINES_ONLY ? process.env.BASELINES_ONLY.split(",") : undefined;
const BASELINES = ALL.filter((b) => !b.unavailable && (!only || only.includes(b.name)));

let server: PostgresServer;
let pools: Pools;
const running = new Map<string, RunningImplementation>();
const databases = new Map<string, string>();

beforeAll(async () => {
  server = await provisionPostgres();
  const template = await prepareTemplate(server, { name: "bench_test_template" });
  pools = await samplePools(template.url, createRng(11));
  for (const baseline of BASELINES) {
    // raw-asgi shares FastAPI's build (its contract export); the Node baselines have none.
    const built = await build(baseline);
    if (!built.ok) throw new Error(`${baseline.name}: ${built.error}`);
    const databaseUrl = await server.createDatabase(`bench_test_${baseline.name.replace(/\W/g, "_")}`, {
      template: template.name,
    });
    databases.set(baseline.name, databaseUrl);
    running.set(
      baseline.name,
      await launch(baseline, { databaseUrl, jwtSecret: randomBytes(24).toString("hex"), env: { DB_POOL_SIZE: "4" } }),
    );
  }
}, 180_000);

afterAll(async () => {
  await Promise.allSettled([...running.values()].map((r) => r.stop()));
  await server?.stop();
});

const cases = SCENARIO_NAMES.flatMap((name) =>
  BASELINES.filter((b) => b.baselineFor === scenarios[name].kind).map((b) => [name, b.name] as const),
);

describe("baselines", () => {
  it.each(cases)("%s: %s passes verification", async (name, baselineName) => {
    const baseline = BASELINES.find((b) => b.name === baselineName) as (typeof BASELINES)[number];
    const app = running.get(baseline.name);
    expect(app, `${baseline.name} is running`).toBeDefined();
    // As in a run: write scenarios order from products the harness has restocked.
    if (scenarios[name].writes) await restock(databases.get(baseline.name) as string, pools.orderProductIds);
    const result = await verifyScenario(app?.url as string, scenarios[name], pools, {
      sampleSize: name === "auth-login" ? 8 : 48,
      seed: 99,
    });
    expect(result.failures, app?.output()).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
