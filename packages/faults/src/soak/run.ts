// The soak: the crud-mix load for a bounded time, sampling the process's RSS and, for Node implementations, heap
// used after a full GC (through the heap probe). Growth from the first to the last quarter is reported, not
// asserted; what is asserted is that every answer of the load was the exact status its step expects. Each request
// carries its caller's bearer token, as the cycle says (the admin's or the cycle's customer's), signed with the app's
// secret.
import {
  bearerCache,
  CRUD_MIX,
  type CrudMixContext,
  type CrudMixPools,
  createRng,
  describeOutcome,
  type Exchange,
  keepAliveAgent,
  send,
  sql,
} from "@api-ref/harness";
import type { FaultApp } from "../app.ts";
import type { SoakFigures } from "../report/figures.ts";
import { heapAfterGc, quarterGrowth, rssOf } from "./memory.ts";

export interface SoakOptions {
  seconds: number;
  connections: number;
  sampleMs: number;
  seed: number;
  /** The heap probe's port, or null for an implementation that is not Node (RSS only). */
  probePort: number | null;
  /** The app's JWT_SECRET, which the callers' tokens are signed with (a soak of under an hour: they last that long). */
  jwtSecret: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MB = 1024 * 1024;

export async function runSoak(
  app: FaultApp,
  options: SoakOptions,
): Promise<{ figures: SoakFigures; violations: string[] }> {
  const ids = async (query: string) => (await sql<{ id: string }>(app.databaseUrl, query)).map((r) => r.id);
  const pools: CrudMixPools = {
    // Customers only: the cycle's customer is one of them, and the admin is the cycle's own.
    userIds: await ids("SELECT id FROM users WHERE role = 'customer' ORDER BY id LIMIT 500"),
    productIds: await ids("SELECT id FROM products ORDER BY id LIMIT 500"),
    orderIds: await ids("SELECT id FROM orders ORDER BY id LIMIT 500"),
  };
  const bearer = bearerCache(options.jwtSecret);
  const pid = app.running.pid;
  const violations: string[] = [];

  const agent = keepAliveAgent(options.connections);
  const durationMs = options.seconds * 1000;
  const warmupMs = Math.min(5_000, durationMs * 0.1);
  const started = performance.now();
  let stop = false;
  let requests = 0;
  let serverErrors = 0;
  const unexpected: string[] = [];
  const worker = async (n: number) => {
    const rng = createRng(options.seed + n);
    const ctx: CrudMixContext = {};
    for (let i = 0; !stop; i++) {
      const step = CRUD_MIX[i % CRUD_MIX.length] as (typeof CRUD_MIX)[number];
      const request = step.request(ctx, pools, rng);
      const headers: Record<string, string> = request.caller ? { authorization: bearer(request.caller) } : {};
      const exchange: Exchange = { method: request.method, path: request.path, headers };
      if (request.body) {
        headers["content-type"] = "application/json";
        exchange.body = JSON.stringify(request.body);
      }
      const outcome = await send(app.url, exchange, { agent, timeoutMs: 30_000 });
      requests++;
      if ((outcome.status ?? 0) >= 500) serverErrors++;
      if (outcome.status !== request.status) {
        unexpected.push(`${describeOutcome(exchange, outcome)} (expected ${request.status})`);
      } else if (step.remember) {
        ctx[step.remember] = (JSON.parse(outcome.text) as { id: string }).id;
      }
    }
  };
  const workers = Array.from({ length: options.connections }, (_, n) => worker(n));

  const heap: number[] = [];
  const rss: number[] = [];
  await sleep(warmupMs);
  const measuredFrom = performance.now();
  const requestsAtStart = requests;
  while (performance.now() - started < durationMs) {
    const [h, r] = await Promise.all([
      options.probePort === null ? Promise.resolve(null) : heapAfterGc(options.probePort, pid),
      rssOf(pid),
    ]);
    if (h !== null) heap.push(h);
    if (r !== null) rss.push(r);
    await sleep(options.sampleMs);
  }
  const measuredMs = performance.now() - measuredFrom;
  const measuredRequests = requests - requestsAtStart;
  stop = true;
  await Promise.all(workers);
  agent.destroy();

  if (!app.alive()) violations.push("the process exited during the soak");
  if (unexpected.length > 0)
    violations.push(
      `${unexpected.length} answer(s) of the load were not the expected status:\n  ${unexpected.slice(0, 5).join("\n  ")}`,
    );
  if (options.probePort !== null && heap.length === 0)
    violations.push("the heap probe never answered (is the process a Node process started with NODE_OPTIONS?)");
  const heapGrowth = quarterGrowth(heap);
  const rssGrowth = quarterGrowth(rss);
  if (!rssGrowth) violations.push(`too few memory samples (${rss.length}) for quarters: run the soak longer`);
  return {
    violations,
    figures: {
      fault: "soak",
      seconds: Math.round((performance.now() - started) / 1000),
      requests,
      requestsPerSecond: measuredMs > 0 ? Math.round((measuredRequests / measuredMs) * 1000) : 0,
      unexpected: unexpected.length,
      serverErrors,
      samples: rss.length,
      heapFirstMB: heapGrowth ? Number((heapGrowth.first / MB).toFixed(1)) : null,
      heapLastMB: heapGrowth ? Number((heapGrowth.last / MB).toFixed(1)) : null,
      heapGrowthPct: heapGrowth ? Number(heapGrowth.growthPct.toFixed(1)) : null,
      rssFirstMB: rssGrowth ? Number((rssGrowth.first / MB).toFixed(1)) : 0,
      rssLastMB: rssGrowth ? Number((rssGrowth.last / MB).toFixed(1)) : 0,
      rssGrowthPct: rssGrowth ? Number(rssGrowth.growthPct.toFixed(1)) : 0,
      heapMethod:
        options.probePort === null
          ? "not a Node process: RSS only"
          : "heap used after a full GC, from a preloaded probe (--expose-gc --import)",
    },
  };
}
