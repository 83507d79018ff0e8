// SIGTERM while slow requests are in flight. What must hold: every request the server accepted before the signal
// is answered correctly; fresh connections after the signal are refused (or answered 503); the process closes its
// database pool itself (no session is left for PostgreSQL to find abandoned) and exits 0 within its grace period.
//
// "Accepted" is made certain rather than guessed: after the load has run, the harness locks the orders table, so
// every request of the load (both kinds touch orders) stops inside the database. The harness waits until backends
// of the app wait on that lock and the server has sat idle with them for a while (so it has read every request
// sent), then sends SIGTERM, and lets the requests go once fresh connections are refused (the shutdown has begun).
import { randomUUID } from "node:crypto";
import { describeOutcome, type Exchange, keepAliveAgent, type Outcome, send, sql } from "@api-ref/harness";
import pg from "pg";
import type { FaultApp } from "./app.ts";
import type { ShutdownFigures } from "./report/figures.ts";

export interface ShutdownOptions {
  adminUrl: string;
  connections: number;
  loadMs: number;
  graceMs: number;
}

/**
 * How long the app must sit with the load held in the database, its backends waiting on the lock in a stable number,
 * before SIGTERM: it has then read every request sent. The whole hold stays well under the apps' 2 s bound on
 * waiting for a pool connection, past which a queued request rightly gets a 503: at most HELD_BEFORE_SIGNAL_MAX_MS
 * once the first backend waits, and HELD_AFTER_SIGNAL_MAX_MS after the signal.
 */
export const HELD_STABLE_MS = 300;
export const HELD_BEFORE_SIGNAL_MAX_MS = 700;
/** The lock is released once the shutdown has visibly begun (a fresh connection refused), or after this. */
export const HELD_AFTER_SIGNAL_MAX_MS = 600;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sent {
  exchange: Exchange;
  outcome?: Outcome;
  sentAt: number;
  idempotencyKey?: string;
}

async function lockWaiters(adminUrl: string, database: string) {
  const rows = await sql<{ n: string }>(
    adminUrl,
    "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
    [database],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function runShutdown(
  app: FaultApp,
  options: ShutdownOptions,
): Promise<{ figures: ShutdownFigures; violations: string[] }> {
  const violations: string[] = [];
  const products = (
    await sql<{ id: string }>(app.databaseUrl, "SELECT id FROM products WHERE stock >= 500 ORDER BY id LIMIT 40")
  ).map((r) => r.id);
  const users = (await sql<{ id: string }>(app.databaseUrl, "SELECT id FROM users ORDER BY id LIMIT 40")).map(
    (r) => r.id,
  );
  const abandoned = async () =>
    Number(
      (
        await sql<{ n: string }>(
          options.adminUrl,
          "SELECT sessions_abandoned AS n FROM pg_stat_database WHERE datname = $1",
          [app.databaseName],
        )
      )[0]?.n ?? 0,
    );
  const backends = async () =>
    Number(
      (
        await sql<{ n: string }>(options.adminUrl, "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1", [
          app.databaseName,
        ])
      )[0]?.n ?? 0,
    );

  // Slow-ish requests: a page of 100 orders with both relations, and order placements (a transaction each).
  let n = 0;
  const nextExchange = (): { exchange: Exchange; idempotencyKey?: string } => {
    n++;
    if (n % 2 === 0) {
      return {
        exchange: { method: "GET", path: `/orders?include=user,product&limit=100&page=${1 + (n % 90)}` },
      };
    }
    const idempotencyKey = `faults-shutdown-${randomUUID()}`;
    return {
      idempotencyKey,
      exchange: {
        method: "POST",
        path: "/orders",
        headers: { "content-type": "application/json", "idempotency-key": idempotencyKey },
        body: JSON.stringify({
          userId: users[n % users.length],
          productId: products[n % products.length],
          quantity: 1,
        }),
      },
    };
  };

  const agent = keepAliveAgent(options.connections);
  const sent: Sent[] = [];
  let signalAt: number | undefined;
  const worker = async () => {
    while (signalAt === undefined) {
      const { exchange, idempotencyKey } = nextExchange();
      const record: Sent = { exchange, sentAt: performance.now(), idempotencyKey };
      sent.push(record);
      record.outcome = await send(app.url, exchange, { agent, timeoutMs: options.graceMs + 10_000 });
    }
  };
  const abandonedBefore = await abandoned();
  const workers = Array.from({ length: options.connections }, worker);
  await sleep(options.loadMs);

  // Hold the load inside the database, then wait until the app's backends wait on the lock.
  const lock = new pg.Client({ connectionString: app.databaseUrl });
  await lock.connect();
  await lock.query("BEGIN");
  await lock.query("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE");
  const lockedAt = performance.now();
  let waiting = 0;
  let firstWaiterAt: number | undefined;
  let stableSince = performance.now();
  while (performance.now() - lockedAt < 5_000) {
    await sleep(25);
    const now = await lockWaiters(options.adminUrl, app.databaseName);
    if (now !== waiting) stableSince = performance.now();
    waiting = now;
    if (waiting === 0) continue;
    firstWaiterAt ??= performance.now();
    const t = performance.now();
    if (t - stableSince >= HELD_STABLE_MS || t - firstWaiterAt >= HELD_BEFORE_SIGNAL_MAX_MS) break;
  }
  if (waiting === 0)
    violations.push("no request of the load reached the database within 5 s: the check proves nothing");

  // The signal, with the load in flight.
  const inFlightAtSignal = sent.filter((s) => s.outcome === undefined).length;
  signalAt = performance.now();
  app.running.process.kill("SIGTERM");

  // Fresh connections while it shuts down: each must be refused or answered 503. The first refusal shows that the
  // shutdown has begun: then the held requests may finish.
  const probes: Outcome[] = [];
  let released = false;
  let releasedAt = 0;
  const release = async () => {
    if (released) return;
    released = true;
    releasedAt = performance.now();
    await lock.query("COMMIT").catch(() => {});
    await lock.end().catch(() => {});
  };
  const releaseTimer = setTimeout(() => void release(), HELD_AFTER_SIGNAL_MAX_MS);
  const refused = (o: Outcome) => o.status === 503 || (o.error !== undefined && !o.responseStarted);
  const prober = (async () => {
    while (app.alive()) {
      const probe = await send(app.url, { method: "GET", path: "/health" }, { agent: false, timeoutMs: 2_000 });
      probes.push(probe);
      if (refused(probe)) void release();
      await sleep(20);
    }
  })();

  const exit = await Promise.race([app.exited, sleep(options.graceMs + 5_000).then(() => null)]);
  if (exit === null) {
    violations.push(`did not exit within ${options.graceMs + 5_000} ms of SIGTERM (killed)`);
    app.running.process.kill("SIGKILL");
  }
  const exited = await app.exited;
  clearTimeout(releaseTimer);
  await release();
  await prober;
  await Promise.all(workers);
  agent.destroy();
  const exitMs = exited.at - signalAt;

  // The pool: its sessions end when the process closes them, not when PostgreSQL finds them abandoned.
  let backendsLeft = await backends();
  for (let waited = 0; backendsLeft > 0 && waited < 5_000; waited += 100) {
    await sleep(100);
    backendsLeft = await backends();
  }
  await sleep(200); // sessions report their end to the statistics as they exit
  const abandonedSessions = (await abandoned()) - abandonedBefore;

  // Every request of the load was sent before the signal and read by the server: each must have its answer.
  let lost = 0;
  const lostExamples: string[] = [];
  for (const s of sent) {
    const o = s.outcome;
    const expected = s.exchange.method === "GET" ? 200 : 201;
    if (o && o.error === undefined && o.status === expected) continue;
    lost++;
    if (lostExamples.length < 5)
      lostExamples.push(
        o
          ? `${describeOutcome(s.exchange, o)} (sent ${Math.round(signalAt - s.sentAt)} ms before SIGTERM)`
          : `${s.exchange.method} ${s.exchange.path} → no outcome`,
      );
  }
  // For the POSTs, the idempotency key shows whether the handler ever ran: of the lost ones, those it never
  // started were dropped before their handler (a diagnosis of the loss, counted as lost all the same).
  const keysStarted = new Set(
    (
      await sql<{ key: string }>(app.databaseUrl, "SELECT key FROM idempotency_keys WHERE key LIKE 'faults-shutdown-%'")
    ).map((r) => r.key),
  );
  const unaccepted = sent.filter(
    (s) => s.idempotencyKey !== undefined && s.outcome?.status !== 201 && !keysStarted.has(s.idempotencyKey),
  ).length;
  if (lost > 0)
    violations.push(`${lost} request(s) accepted before SIGTERM were not answered:\n  ${lostExamples.join("\n  ")}`);

  const probesRefused = probes.filter(refused).length;
  const firstRefusal = probes.findIndex(refused);
  const acceptedAfterRefusal = firstRefusal < 0 ? [] : probes.slice(firstRefusal).filter((o) => !refused(o));
  const lastAccepted = probes.filter((o) => !refused(o)).at(-1);
  const acceptingForMs = lastAccepted ? lastAccepted.sentAt - signalAt : 0;
  if (acceptedAfterRefusal.length > 0)
    violations.push(`${acceptedAfterRefusal.length} fresh connection(s) were served after others had been refused`);
  if (firstRefusal < 0 && exitMs > 500 && probes.length > 0)
    violations.push(`kept serving fresh connections for all ${Math.round(exitMs)} ms until it exited`);

  if (exited.code !== 0)
    violations.push(`exit code ${exited.code}${exited.signal ? ` (signal ${exited.signal})` : ""}, expected 0`);
  if (exitMs > options.graceMs)
    violations.push(`exited ${Math.round(exitMs)} ms after SIGTERM, grace is ${options.graceMs} ms`);
  if (abandonedSessions > 0)
    violations.push(`${abandonedSessions} database session(s) were dropped without closing them (pool not closed)`);
  if (backendsLeft > 0) violations.push(`${backendsLeft} database session(s) still open 5 s after the exit`);

  return {
    violations,
    figures: {
      fault: "shutdown",
      requests: sent.length,
      inFlightAtSignal,
      lost,
      unaccepted,
      probesRefused,
      probesAccepted: probes.length - probesRefused,
      acceptingForMs: Math.max(0, Math.round(acceptingForMs)),
      firstRefusalMs: firstRefusal < 0 ? null : Math.round((probes[firstRefusal]?.endedAt ?? signalAt) - signalAt),
      heldAfterSignalMs: Math.round(releasedAt - signalAt),
      exitCode: exited.code,
      exitSignal: exited.signal,
      exitMs: Math.round(exitMs),
      graceMs: options.graceMs,
      abandonedSessions,
      backendsLeft,
    },
  };
}
