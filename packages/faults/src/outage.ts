// PostgreSQL stopped under load, then started again. While it is down: every request that needs it gets a 503
// problem within a bound (no hang), /health stays 200, /ready turns 503, the process keeps running. Once it is
// back: every route works again within a bound (the recovery time is measured), and afterwards each product's
// stock is exactly its initial stock minus its new non-cancelled orders (no order without its stock decrement,
// no decrement without its order). Every request that needs a caller carries a token (the admin's, or the
// customer's own), so that while PostgreSQL is down authenticating the caller — which reads their role — must end
// in the 503 too, never in a 401.
import { PROBLEMS } from "@api-ref/contract";
import { fixtureProducts, fixtureUsers } from "@api-ref/db/fixtures";
import type { Exchange, Outcome } from "@api-ref/harness";
import { bearerCache, describeOutcome, durationMs, jsonOf, keepAliveAgent, send, sql } from "@api-ref/harness";
import type { FaultApp } from "./app.ts";
import { type RoundCallers, runRound } from "./every-route.ts";
import type { FaultSettings } from "./options.ts";
import type { OutageFigures } from "./report/figures.ts";

export type OutageOptions = FaultSettings["outage"] & {
  /** POST `${controlUrl}/stop` and `/start` stop and start the suite's PostgreSQL server. */
  controlUrl: string;
  /** The app's JWT_SECRET, which the load's and the rounds' tokens are signed with. */
  jwtSecret: string;
};

/** Run in the app's database before the app starts: what the stock ledger is checked against afterwards. */
export const BASELINE_SQL = `
  CREATE TABLE faults_baseline_products AS SELECT id, stock, price_cents FROM products;
  CREATE TABLE faults_baseline_orders AS SELECT id FROM orders;`;

/** Products whose stock is not initial stock minus the quantity of their new non-cancelled orders. */
export const STOCK_LEDGER_SQL = `
  SELECT p.id, b.stock AS initial, p.stock AS current,
         COALESCE(SUM(o.quantity) FILTER (WHERE o.status <> 'cancelled'), 0)::int AS taken
  FROM products p
  JOIN faults_baseline_products b ON b.id = p.id
  LEFT JOIN orders o ON o.product_id = p.id
    AND NOT EXISTS (SELECT 1 FROM faults_baseline_orders bo WHERE bo.id = o.id)
  GROUP BY p.id, b.stock, p.stock
  HAVING b.stock - COALESCE(SUM(o.quantity) FILTER (WHERE o.status <> 'cancelled'), 0) <> p.stock`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor((sorted.length - 1) / 2)] ?? 0);
};

/** A 503 problem that says when to retry (`retry-after`, README "Edges of HTTP" in packages/contract). */
const isUnavailableProblem = (o: Outcome) => {
  if (o.status !== 503 || !/^application\/problem\+json/i.test(o.headers["content-type"] ?? "")) return false;
  if (!/^\d+$/.test(o.headers["retry-after"] ?? "")) return false;
  const body = jsonOf(o) as { type?: unknown; status?: unknown } | undefined;
  return body?.type === PROBLEMS.unavailable.type && body?.status === 503;
};
const isSuccess = (o: Outcome, ok: number[]) => o.error === undefined && ok.includes(o.status ?? 0);

interface Sent {
  kind: "order" | "read";
  exchange: Exchange;
  /** Statuses that are correct while the database is up. */
  ok: number[];
  outcome: Outcome;
}

interface Probe {
  path: "/health" | "/ready";
  outcome: Outcome;
}

/** Rows the load draws from: customers, products with stock to spare, orders; the recovery rounds' own product. */
interface Targets {
  users: string[];
  products: string[];
  orders: string[];
  roundProduct: string;
  /** Each user's `authorization` header (the admin's, the customers'). */
  bearer: (userId: string) => string;
}

/** When the outage happened (performance.now()): stop asked, database down, start asked, database up. */
interface Timeline {
  stopRequestedAt: number;
  downAt: number;
  startRequestedAt: number;
  upAt: number;
}

export async function runOutage(
  app: FaultApp,
  options: OutageOptions,
): Promise<{ figures: OutageFigures; violations: string[] }> {
  const violations: string[] = [];
  const timeoutMs = options.answerBoundMs * 3;
  const targets = await pickTargets(app.databaseUrl, options.jwtSecret);
  const load = startLoad(app, options, targets, timeoutMs);
  await sleep(options.upMs);
  const timeline = await stopAndStartPostgres(options);
  const callers = { admin: targets.bearer(fixtureUsers.admin.id), customer: targets.bearer(fixtureUsers.noOrders.id) };
  const recovery = await awaitRecovery(app, targets.roundProduct, timeline.upAt, options, timeoutMs, callers);
  violations.push(...recovery.violations);
  await sleep(options.afterMs);
  const { sent, probes } = await load.stop();
  const processExited = !app.alive();
  if (processExited) {
    const { code, signal } = await app.exited;
    violations.push(`the process exited during the outage (exit code ${code}, signal ${signal})`);
  }

  const answers = judgeAnswers(sent, timeline, recovery.recoveredAt, options);
  if (answers.whileDown.length === 0)
    violations.push("no request was sent while the database was down: the check proves nothing");
  const probing = judgeProbes(probes, timeline, recovery.recoveredAt);
  const wrong = [...answers.wrong, ...probing.wrong];
  if (wrong.length > 0) violations.push(`${wrong.length} wrong answer(s):\n  ${wrong.slice(0, 8).join("\n  ")}`);
  const data = await checkData(app.databaseUrl, sent, targets.roundProduct);
  violations.push(...data.violations);

  const answerTimes = answers.whileDown.map((s) => durationMs(s.outcome));
  return {
    violations,
    figures: {
      fault: "db-outage",
      downMs: Math.round(timeline.startRequestedAt - timeline.downAt),
      whileDown: answers.whileDown.length,
      answered503: answers.whileDown.filter((s) => isUnavailableProblem(s.outcome)).length,
      wrongAnswers: wrong.length,
      maxAnswerMs: Math.round(Math.max(0, ...answerTimes)),
      medianAnswerMs: Math.round(median(answerTimes)),
      answerBoundMs: options.answerBoundMs,
      healthProbes: probes.filter((p) => p.path === "/health").length,
      healthFailures: probing.healthFailures,
      readyProbes: probing.readyWhileDown,
      readyNot503: probing.readyNot503,
      recoveryMs: recovery.recoveryMs === null ? null : Math.round(recovery.recoveryMs),
      recoveryBoundMs: options.recoveryBoundMs,
      failuresAfterRecovery: answers.failuresAfterRecovery,
      ordersAcknowledged: data.acknowledged.size,
      ordersCreated: data.created.size,
      ordersUnacknowledged: [...data.created].filter((id) => !data.acknowledged.has(id)).length,
      stockMismatches: data.stockMismatches,
      processExited,
    },
  };
}

async function pickTargets(db: string, jwtSecret: string): Promise<Targets> {
  const users = (
    await sql<{ id: string }>(db, "SELECT id FROM users WHERE role = 'customer' ORDER BY id LIMIT 50")
  ).map((r) => r.id);
  // Orders go to products with stock to spare; the round orders from its own fixture product.
  const roundProduct = fixtureProducts.unordered.id;
  const products = (
    await sql<{ id: string }>(db, "SELECT id FROM products WHERE stock >= 500 AND id <> $1 ORDER BY id LIMIT 30", [
      roundProduct,
    ])
  ).map((r) => r.id);
  const orders = (await sql<{ id: string }>(db, "SELECT id FROM orders ORDER BY id LIMIT 50")).map((r) => r.id);
  return { users, products, orders, roundProduct, bearer: bearerCache(jwtSecret) };
}

/**
 * The load's requests in turn: one order for every three reads (an order by id, a page of products, a user), each
 * by the caller a client would be: a customer placing their own order and reading themself, the admin reading any
 * order, nobody reading products.
 */
function exchangesOver({ users, products, orders, bearer }: Targets): () => Omit<Sent, "outcome"> {
  const admin = bearer(fixtureUsers.admin.id);
  const pick = <T>(items: T[], n: number) => items[n % items.length] as T;
  let n = 0;
  return (): Omit<Sent, "outcome"> => {
    n++;
    switch (n % 4) {
      case 0:
        return {
          kind: "order",
          ok: [201, 409],
          exchange: {
            method: "POST",
            path: "/orders",
            headers: { "content-type": "application/json", authorization: bearer(pick(users, n)) },
            body: JSON.stringify({ productId: pick(products, n), quantity: 1 + (n % 3) }),
          },
        };
      case 1:
        return {
          kind: "read",
          ok: [200],
          exchange: {
            method: "GET",
            path: `/orders/${pick(orders, n)}?include=product`,
            headers: { authorization: admin },
          },
        };
      case 2:
        return {
          kind: "read",
          ok: [200],
          exchange: { method: "GET", path: `/products?limit=20&page=${1 + (n % 50)}` },
        };
      default: {
        const user = pick(users, n);
        return {
          kind: "read",
          ok: [200],
          exchange: { method: "GET", path: `/users/${user}`, headers: { authorization: bearer(user) } },
        };
      }
    }
  };
}

/**
 * `options.connections` workers sending the load, and a prober asking /health and /ready every 100 ms, until
 * `stop()`, which resolves with everything sent and probed.
 */
function startLoad(app: FaultApp, options: OutageOptions, targets: Targets, timeoutMs: number) {
  const nextExchange = exchangesOver(targets);
  const agent = keepAliveAgent(options.connections);
  const probeAgent = keepAliveAgent(1);
  const sent: Sent[] = [];
  const probes: Probe[] = [];
  let stopping = false;
  const worker = async () => {
    while (!stopping) {
      const next = nextExchange();
      const outcome = await send(app.url, next.exchange, { agent, timeoutMs });
      sent.push({ ...next, outcome });
      // A quick 503 must not turn the load into a busy loop.
      if (outcome.status === 503) await sleep(20);
    }
  };
  const prober = async () => {
    while (!stopping) {
      for (const path of ["/health", "/ready"] as const) {
        probes.push({ path, outcome: await send(app.url, { method: "GET", path }, { agent: probeAgent, timeoutMs }) });
      }
      await sleep(100);
    }
  };
  const running = [...Array.from({ length: options.connections }, worker), prober()];
  return {
    async stop() {
      stopping = true;
      await Promise.all(running);
      agent.destroy();
      probeAgent.destroy();
      return { sent, probes };
    },
  };
}

/** The outage itself: PostgreSQL stopped, `downMs` waited, started again. */
async function stopAndStartPostgres(options: OutageOptions): Promise<Timeline> {
  const control = async (action: "stop" | "start") => {
    const outcome = await send(options.controlUrl, { method: "POST", path: `/${action}` }, { timeoutMs: 60_000 });
    if (outcome.status !== 200) throw new Error(`could not ${action} PostgreSQL: ${outcome.error ?? outcome.text}`);
  };
  const stopRequestedAt = performance.now();
  await control("stop");
  const downAt = performance.now();
  await sleep(options.downMs);
  const startRequestedAt = performance.now();
  await control("start");
  return { stopRequestedAt, downAt, startRequestedAt, upAt: performance.now() };
}

/** Rounds over every route until one passes completely: when that was, and whether it was within the bound. */
async function awaitRecovery(
  app: FaultApp,
  roundProduct: string,
  upAt: number,
  options: OutageOptions,
  timeoutMs: number,
  callers: RoundCallers,
): Promise<{ recoveredAt: number | null; recoveryMs: number | null; violations: string[] }> {
  const giveUpMs = options.recoveryBoundMs + 10_000;
  let lastRoundFailures: string[] = [];
  while (performance.now() - upAt < giveUpMs) {
    const round = await runRound(app.url, roundProduct, { timeoutMs, callers });
    if (round.passed) {
      const recoveryMs = round.endedAt - upAt;
      const late = `every route worked again only ${Math.round(recoveryMs)} ms after the database returned`;
      return {
        recoveredAt: round.endedAt,
        recoveryMs,
        violations: recoveryMs > options.recoveryBoundMs ? [late] : [],
      };
    }
    lastRoundFailures = round.failures;
    await sleep(50);
  }
  return {
    recoveredAt: null,
    recoveryMs: null,
    violations: [
      `routes still failing ${Math.round(giveUpMs / 1000)} s after the database returned:\n  ${lastRoundFailures.slice(0, 5).join("\n  ")}`,
    ],
  };
}

/**
 * The load's answers, by when each request was sent: successes before the outage and after the recovery, 503
 * problems (or a success that waited into the database's return) while it was down, one or the other in the
 * transitions, and every answer while it was down within the bound.
 */
function judgeAnswers(sent: Sent[], timeline: Timeline, recoveredAt: number | null, options: OutageOptions) {
  const { stopRequestedAt, downAt, startRequestedAt, upAt } = timeline;
  const wrong: string[] = [];
  const whileDown: Sent[] = [];
  let failuresAfterRecovery = 0;
  for (const s of sent) {
    const o = s.outcome;
    const d = durationMs(o);
    const line = () =>
      `${describeOutcome(s.exchange, o)} (sent ${Math.round(o.sentAt - stopRequestedAt)} ms after the stop)`;
    if (o.endedAt > stopRequestedAt && o.sentAt < upAt && d > options.answerBoundMs)
      wrong.push(`answered after ${Math.round(d)} ms, bound ${options.answerBoundMs} ms: ${line()}`);
    if (o.endedAt < stopRequestedAt) {
      if (!isSuccess(o, s.ok)) wrong.push(`before the outage: ${line()}`);
    } else if (o.sentAt >= downAt && o.sentAt < startRequestedAt) {
      whileDown.push(s);
      // Sent while the database was down: a 503 problem, or a success if it waited into the database's return.
      const lateSuccess = o.endedAt > startRequestedAt && isSuccess(o, s.ok);
      if (!isUnavailableProblem(o) && !lateSuccess) wrong.push(`while down: ${line()}`);
    } else if (recoveredAt !== null && o.sentAt > recoveredAt) {
      if (!isSuccess(o, s.ok)) {
        failuresAfterRecovery++;
        wrong.push(`after recovery: ${line()}`);
      }
    } else if (!isUnavailableProblem(o) && !isSuccess(o, s.ok)) {
      // In the transitions (stopping, starting, recovering): a success or a 503 problem, nothing else.
      wrong.push(`in a transition: ${line()}`);
    }
  }
  return { wrong, whileDown, failuresAfterRecovery };
}

/** The probes: /health always 200, /ready a 503 problem while the database was down and 200 after the recovery. */
function judgeProbes(probes: Probe[], { downAt, startRequestedAt }: Timeline, recoveredAt: number | null) {
  const wrong: string[] = [];
  let healthFailures = 0;
  let readyNot503 = 0;
  let readyWhileDown = 0;
  for (const { path, outcome: o } of probes) {
    if (path === "/health") {
      if (o.status !== 200) {
        healthFailures++;
        wrong.push(`/health: ${describeOutcome({ method: "GET", path }, o)}`);
      }
    } else if (o.sentAt >= downAt && o.sentAt < startRequestedAt) {
      readyWhileDown++;
      if (!isUnavailableProblem(o)) {
        readyNot503++;
        wrong.push(`/ready while down: ${describeOutcome({ method: "GET", path }, o)}`);
      }
    } else if (recoveredAt !== null && o.sentAt > recoveredAt && o.status !== 200) {
      wrong.push(`/ready after recovery: ${describeOutcome({ method: "GET", path }, o)}`);
    }
  }
  return { wrong, healthFailures, readyNot503, readyWhileDown };
}

/** The data: every acknowledged order exists, the stock ledger balances exactly, and new orders' totals are right. */
async function checkData(db: string, sent: Sent[], roundProduct: string) {
  const violations: string[] = [];
  const acknowledged = new Set(
    sent
      .filter((s) => s.kind === "order" && s.outcome.status === 201)
      .map((s) => (jsonOf(s.outcome) as { id: string }).id),
  );
  const created = new Set(
    (
      await sql<{ id: string }>(
        db,
        "SELECT id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM faults_baseline_orders b WHERE b.id = o.id) AND product_id <> $1",
        [roundProduct],
      )
    ).map((r) => r.id),
  );
  const missing = [...acknowledged].filter((id) => !created.has(id));
  if (missing.length > 0)
    violations.push(`${missing.length} order(s) answered 201 do not exist: ${missing.slice(0, 3).join(", ")}`);
  const ledger = await sql(db, STOCK_LEDGER_SQL);
  if (ledger.length > 0)
    violations.push(
      `stock does not match the orders for ${ledger.length} product(s): ${JSON.stringify(ledger.slice(0, 3))}`,
    );
  const badTotals = await sql(
    db,
    `SELECT o.id FROM orders o JOIN faults_baseline_products b ON b.id = o.product_id
     WHERE NOT EXISTS (SELECT 1 FROM faults_baseline_orders bo WHERE bo.id = o.id)
       AND (o.unit_price_cents <> b.price_cents OR o.total_cents <> o.unit_price_cents::bigint * o.quantity)`,
  );
  if (badTotals.length > 0) violations.push(`${badTotals.length} new order(s) with a wrong price or total`);
  return { acknowledged, created, stockMismatches: ledger.length, violations };
}
