// The load generator's own process (started by load/generator.ts, pinned to its own core): runs the warm-up
// and the measured run of one cell with autocannon (or the fixed-rate generator) and reports back over IPC,
// including the CPU it used itself, so that the harness can tell when the load generator was the limit.
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import {
  type BenchRequest,
  createRng,
  type Plan,
  type Pools,
  type Rng,
  type ScenarioName,
  scenarios,
} from "../scenarios/catalog.ts";
import { runFixedRate } from "./fixed-rate.ts";
import { LatencyRecorder, type LoadOutcome, StatusCounter } from "./outcome.ts";

export interface LoadConfig {
  url: string;
  scenario: ScenarioName;
  pools: Pools;
  seed: number;
  connections: number;
  pipelining: number;
  warmupS: number;
  durationS: number;
  /**
   * --count instructions: exactly this many requests instead of `durationS` of them, each answered before the run
   * ends (and no drain after it): the server's counters then hold these requests' work and nothing else.
   */
  requests?: number;
  /** Fixed-rate mode: requests per second across all connections. */
  rate?: number;
  timeoutS: number;
  /**
   * duet: after the warm-up, say "ready" and wait for "go" before measuring, so that two load generators start
   * their measured parts at the same moment.
   */
  sync?: boolean;
}

export type ChildMessage =
  | { type: "phase"; phase: "warmup" | "ready" | "measure" | "done" }
  | { type: "result"; outcome: LoadOutcome; cpu: { userMs: number; systemMs: number; wallMs: number } }
  | { type: "error"; message: string };

type AutocannonRequest = NonNullable<autocannon.Options["requests"]>[number];

const toAutocannon = (r: BenchRequest) => ({
  method: r.method,
  path: r.path,
  headers: r.headers ?? {},
  ...(r.body !== undefined ? { body: r.body } : {}),
});

const REQUESTS_PER_CONNECTION = 32;

function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** autocannon's requests for a plan: a pool drawn per connection, or a sequence's steps built as they are sent. */
function autocannonRequests(plan: Plan, rng: Rng) {
  if (plan.kind !== "pool") {
    const requests = plan.steps.map((step) => ({
      setupRequest: (req: autocannon.Request, context: Record<string, string | undefined>) => {
        const built = step.build(context, rng);
        return { ...req, ...toAutocannon(built), body: built.body ?? "" } as autocannon.Request;
      },
      onResponse: (status: number, body: string, context: Record<string, string | undefined>) =>
        step.onResponse?.(status, body, context),
    })) as AutocannonRequest[];
    return { requests };
  }
  const requests = plan.requests.slice(0, 1).map(toAutocannon) as AutocannonRequest[];
  if (plan.requests.length <= 1) return { requests };
  // Every connection gets its own random draw of the pool, prebuilt once: no per-request cost, no lockstep. A draw,
  // not the whole pool: autocannon builds each request's bytes up front (100 × 256 cost half a second a run).
  const setupClient = (client: autocannon.Client) => {
    (client as unknown as { setRequests(r: unknown[]): void }).setRequests(
      shuffled(plan.requests, rng).slice(0, REQUESTS_PER_CONNECTION).map(toAutocannon),
    );
  };
  return { requests, setupClient };
}

function runAutocannon(config: LoadConfig, plan: Plan, rng: Rng, durationS: number): Promise<LoadOutcome> {
  const { requests, setupClient } = autocannonRequests(plan, rng);
  const latencies = new LatencyRecorder();
  const statuses = new StatusCounter();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: config.url,
        connections: config.connections,
        pipelining: config.pipelining,
        ...(config.requests ? { amount: config.requests } : { duration: durationS }),
        // autocannon checks its stop flag once per sample: at the default 1 s a 1.4 s run lasted 2 s (and a
        // default run its budget and a half). A tenth of a second keeps every run within 0.1 s of its length.
        sampleInt: 100,
        timeout: config.timeoutS,
        requests,
        ...(setupClient ? { setupClient } : {}),
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsedS = result.duration || durationS;
        resolve({
          durationS: elapsedS,
          completed: statuses.total,
          requestsPerSecond: result.requests.total / elapsedS,
          statusCounts: statuses.counts,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          latency: latencies.summary(),
        });
      },
    );
    // autocannon's own histogram keeps whole milliseconds; record every latency exactly instead.
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      latencies.record(responseTime);
      statuses.add(statusCode);
    });
  });
}

async function runLoad(config: LoadConfig, durationS: number): Promise<LoadOutcome> {
  // The plan comes from the run's seed, as in the harness's verification: the same requests.
  const plan = scenarios[config.scenario].plan(config.pools, createRng(config.seed));
  const rng = createRng(config.seed + 2 + Math.floor(Math.random() * 1e6));
  if (config.rate) {
    return runFixedRate({
      url: config.url,
      rate: config.rate,
      connections: config.connections,
      durationS,
      plan,
      rng,
      timeoutS: config.timeoutS,
    });
  }
  return runAutocannon(config, plan, rng, durationS);
}

/**
 * Waits until the server has worked off what a run left queued (a backlog of scrypt hashes would land in the next
 * run): one more request of the scenario, sent after all of them, is answered after them.
 */
async function drain(config: LoadConfig) {
  const plan = scenarios[config.scenario].plan(config.pools, createRng(config.seed));
  const req = plan.kind === "pool" ? plan.requests[0] : plan.steps[0]?.build({}, createRng(config.seed));
  if (!req) return;
  try {
    const res = await fetch(`${config.url}${req.path}`, {
      method: req.method,
      headers: req.headers ?? {},
      ...(req.body !== undefined ? { body: req.body } : {}),
      signal: AbortSignal.timeout(60_000),
    });
    await res.arrayBuffer();
  } catch {
    // the measured run reports what is wrong
  }
}

async function main(config: LoadConfig) {
  const send = (message: ChildMessage) => process.send?.(message);
  if (config.warmupS > 0) {
    send({ type: "phase", phase: "warmup" });
    await runLoad(config, config.warmupS);
    await drain(config);
  }
  if (config.sync) {
    const go = new Promise<void>((resolve) => {
      goSignal = resolve;
    });
    send({ type: "phase", phase: "ready" });
    await go;
  }
  send({ type: "phase", phase: "measure" });
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const outcome = await runLoad(config, config.durationS);
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - wallBefore;
  send({ type: "phase", phase: "done" });
  // What the measured run left queued on the server (requests of the connections it closed) is worked off here,
  // before the next cell starts: otherwise it would run during another implementation's measurement, on the
  // same core. A run of a number of requests leaves nothing queued.
  if (!config.requests) await drain(config);
  send({
    type: "result",
    outcome,
    cpu: { userMs: cpu.user / 1000, systemMs: cpu.system / 1000, wallMs },
  });
}

// One process serves every cell of a run, one at a time: a cell costs no process start, and the CPU of each is
// measured over its own measured part.
let goSignal: (() => void) | undefined;
process.on("message", (message: LoadConfig | "go") => {
  if (message === "go") {
    goSignal?.();
    goSignal = undefined;
    return;
  }
  main(message).catch((error: Error) => process.send?.({ type: "error", message: error.stack ?? error.message }));
});
process.on("disconnect", () => process.exit(0));
