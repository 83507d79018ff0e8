// SIGTERM while slow requests are in flight. What must hold: every request the server accepted before the signal
// is answered correctly; fresh connections after the signal are refused (or answered 503); the process closes its
// database pool itself (no session is left for PostgreSQL to find abandoned) and exits 0 within its grace period.
//
// "Accepted" is made certain rather than guessed: after the load has run, the harness locks the orders table, so
// every request of the load (both kinds touch orders) stops inside the database. The harness waits until backends
// of the app wait on that lock and the server has sat idle with them for a while (so it has read every request
// sent), then sends SIGTERM, and lets the requests go once fresh connections are refused (the shutdown has begun).
// The load is sent by signed-in callers, who log in through the server first (so the check needs no secret, and
// runs as well against a container): the admin pages through every order, a customer places orders of their own.
import { randomUUID } from "node:crypto";
import { fixtureUsers } from "@api-ref/db/fixtures";
import { describeOutcome, type Exchange, keepAliveAgent, loginToken, type Outcome, send, sql } from "@api-ref/harness";
import pg from "pg";
import type { FaultApp } from "./app.ts";
import type { ShutdownFigures } from "./report/figures.ts";

/**
 * What the check needs of a server: where it answers, its database, a way to signal it, and its exit. A FaultApp
 * (a process the fault suite started) is one; so is a container (`.ci/images.ts`: `docker stop` is the SIGTERM).
 */
export type ShutdownTarget = Pick<FaultApp, "url" | "databaseName" | "databaseUrl" | "alive" | "exited"> & {
  signal(signal: "SIGTERM" | "SIGKILL"): void;
};

/** A process the fault suite started, as a shutdown target. */
export const processTarget = (app: FaultApp): ShutdownTarget => ({
  url: app.url,
  databaseName: app.databaseName,
  databaseUrl: app.databaseUrl,
  alive: () => app.alive(),
  exited: app.exited,
  signal: (signal) => app.running.process.kill(signal),
});

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

export async function runShutdown(
  app: ShutdownTarget,
  options: ShutdownOptions,
): Promise<{ figures: ShutdownFigures; violations: string[] }> {
  const violations: string[] = [];
  const sessions = sessionsOf(options.adminUrl, app.databaseName);
  const abandonedBefore = await sessions.abandoned();
  const load = startLoad(app, options, await exchangesFor(app));
  await sleep(options.loadMs);
  const hold = await holdLoadInDatabase(app, options);
  if (hold.waiting === 0)
    violations.push("no request of the load reached the database within 5 s: the check proves nothing");

  const inFlightAtSignal = load.sent.filter((s) => s.outcome === undefined).length;
  const signalAt = performance.now();
  load.stopSending();
  app.signal("SIGTERM");
  const shutdown = await probeUntilExit(app, options, hold.release);
  if (shutdown.killed) violations.push(`did not exit within ${options.graceMs + 5_000} ms of SIGTERM (killed)`);
  await load.finished();
  const { exited, probes } = shutdown;
  const exitMs = exited.at - signalAt;
  const pool = await poolAfterExit(sessions, abandonedBefore);

  const answers = await judgeAnswers(load.sent, signalAt, app.databaseUrl);
  if (answers.lost > 0)
    violations.push(
      `${answers.lost} request(s) accepted before SIGTERM were not answered:\n  ${answers.lostExamples.join("\n  ")}`,
    );
  const refusals = judgeRefusals(probes, signalAt);
  if (refusals.acceptedAfterRefusal > 0)
    violations.push(`${refusals.acceptedAfterRefusal} fresh connection(s) were served after others had been refused`);
  if (refusals.firstRefusal < 0 && exitMs > 500 && probes.length > 0)
    violations.push(`kept serving fresh connections for all ${Math.round(exitMs)} ms until it exited`);
  if (exited.code !== 0)
    violations.push(`exit code ${exited.code}${exited.signal ? ` (signal ${exited.signal})` : ""}, expected 0`);
  if (exitMs > options.graceMs)
    violations.push(`exited ${Math.round(exitMs)} ms after SIGTERM, grace is ${options.graceMs} ms`);
  if (pool.abandonedSessions > 0)
    violations.push(
      `${pool.abandonedSessions} database session(s) were dropped without closing them (pool not closed)`,
    );
  if (pool.backendsLeft > 0) violations.push(`${pool.backendsLeft} database session(s) still open 5 s after the exit`);

  const firstRefused = probes[refusals.firstRefusal];
  return {
    violations,
    figures: {
      fault: "shutdown",
      requests: load.sent.length,
      inFlightAtSignal,
      lost: answers.lost,
      unaccepted: answers.unaccepted,
      probesRefused: refusals.refused,
      probesAccepted: probes.length - refusals.refused,
      acceptingForMs: Math.max(0, Math.round(refusals.acceptingForMs)),
      firstRefusalMs: firstRefused ? Math.round(firstRefused.endedAt - signalAt) : null,
      heldAfterSignalMs: Math.round(shutdown.releasedAt - signalAt),
      exitCode: exited.code,
      exitSignal: exited.signal,
      exitMs: Math.round(exitMs),
      graceMs: options.graceMs,
      abandonedSessions: pool.abandonedSessions,
      backendsLeft: pool.backendsLeft,
    },
  };
}

/** The app database's sessions as PostgreSQL counts them: those it found abandoned, and those still open. */
function sessionsOf(adminUrl: string, database: string) {
  const count = async (query: string) => Number((await sql<{ n: string }>(adminUrl, query, [database]))[0]?.n ?? 0);
  return {
    abandoned: () => count("SELECT sessions_abandoned AS n FROM pg_stat_database WHERE datname = $1"),
    backends: () => count("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1"),
    waitingOnLock: () =>
      count("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'"),
  };
}

/** The `authorization` header of a seeded user, from the server's own login. */
async function signIn(app: ShutdownTarget, email: string): Promise<string> {
  const token = await loginToken(app.url, email);
  if (!token) throw new Error(`could not log in as ${email} (seed password) to send the load`);
  return `Bearer ${token}`;
}

/**
 * Slow-ish requests in turn: a page of 100 orders with both relations (the admin's: every order), and order
 * placements (a customer's own, a transaction each).
 */
async function exchangesFor(app: ShutdownTarget): Promise<() => Omit<Sent, "sentAt">> {
  const ids = async (query: string) => (await sql<{ id: string }>(app.databaseUrl, query)).map((r) => r.id);
  const products = await ids("SELECT id FROM products WHERE stock >= 500 ORDER BY id LIMIT 40");
  const admin = await signIn(app, fixtureUsers.admin.email);
  const customer = await signIn(app, fixtureUsers.buyer.email);
  let n = 0;
  return (): Omit<Sent, "sentAt"> => {
    n++;
    if (n % 2 === 0) {
      return {
        exchange: {
          method: "GET",
          path: `/orders?include=user,product&limit=100&page=${1 + (n % 90)}`,
          headers: { authorization: admin },
        },
      };
    }
    const idempotencyKey = `faults-shutdown-${randomUUID()}`;
    return {
      idempotencyKey,
      exchange: {
        method: "POST",
        path: "/orders",
        headers: { "content-type": "application/json", "idempotency-key": idempotencyKey, authorization: customer },
        body: JSON.stringify({ productId: products[n % products.length], quantity: 1 }),
      },
    };
  };
}

/** `options.connections` workers sending requests, each recorded as it is sent, until `stopSending()`. */
function startLoad(app: ShutdownTarget, options: ShutdownOptions, nextExchange: () => Omit<Sent, "sentAt">) {
  const agent = keepAliveAgent(options.connections);
  const sent: Sent[] = [];
  let sending = true;
  const worker = async () => {
    while (sending) {
      const record: Sent = { ...nextExchange(), sentAt: performance.now() };
      sent.push(record);
      record.outcome = await send(app.url, record.exchange, { agent, timeoutMs: options.graceMs + 10_000 });
    }
  };
  const workers = Array.from({ length: options.connections }, worker);
  return {
    sent,
    stopSending: () => {
      sending = false;
    },
    /** Resolves once every request sent has its outcome. */
    async finished() {
      await Promise.all(workers);
      agent.destroy();
    },
  };
}

/**
 * Locks the orders table, so that every request of the load stops inside the database, and waits until the app's
 * backends wait on the lock in a stable number (or for at most HELD_BEFORE_SIGNAL_MAX_MS after the first, 5 s in
 * all). `release()` lets them go.
 */
async function holdLoadInDatabase(app: ShutdownTarget, options: ShutdownOptions) {
  const sessions = sessionsOf(options.adminUrl, app.databaseName);
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
    const now = await sessions.waitingOnLock();
    if (now !== waiting) stableSince = performance.now();
    waiting = now;
    if (waiting === 0) continue;
    firstWaiterAt ??= performance.now();
    const t = performance.now();
    if (t - stableSince >= HELD_STABLE_MS || t - firstWaiterAt >= HELD_BEFORE_SIGNAL_MAX_MS) break;
  }
  const release = async () => {
    await lock.query("COMMIT").catch(() => {});
    await lock.end().catch(() => {});
  };
  return { waiting, release };
}

/** A fresh connection's answer during the shutdown is right when it is refused, or answered 503. */
const refused = (o: Outcome) => o.status === 503 || (o.error !== undefined && !o.responseStarted);

/**
 * After SIGTERM: fresh connections every 20 ms until the process exits (killed past the grace period and 5 s).
 * The first refusal shows that the shutdown has begun: the held requests are then released (or after
 * HELD_AFTER_SIGNAL_MAX_MS).
 */
async function probeUntilExit(app: ShutdownTarget, options: ShutdownOptions, releaseHold: () => Promise<void>) {
  let releasedAt = 0;
  const release = async () => {
    if (releasedAt !== 0) return;
    releasedAt = performance.now();
    await releaseHold();
  };
  const releaseTimer = setTimeout(() => void release(), HELD_AFTER_SIGNAL_MAX_MS);
  const probes: Outcome[] = [];
  const prober = (async () => {
    while (app.alive()) {
      const probe = await send(app.url, { method: "GET", path: "/health" }, { agent: false, timeoutMs: 2_000 });
      probes.push(probe);
      if (refused(probe)) void release();
      await sleep(20);
    }
  })();
  const exit = await Promise.race([app.exited, sleep(options.graceMs + 5_000).then(() => null)]);
  if (exit === null) app.signal("SIGKILL");
  const exited = await app.exited;
  clearTimeout(releaseTimer);
  await release();
  await prober;
  return { exited, probes, releasedAt, killed: exit === null };
}

/** The pool: its sessions end when the process closes them, not when PostgreSQL finds them abandoned. */
async function poolAfterExit(sessions: ReturnType<typeof sessionsOf>, abandonedBefore: number) {
  let backendsLeft = await sessions.backends();
  for (let waited = 0; backendsLeft > 0 && waited < 5_000; waited += 100) {
    await sleep(100);
    backendsLeft = await sessions.backends();
  }
  await sleep(200); // sessions report their end to the statistics as they exit
  return { backendsLeft, abandonedSessions: (await sessions.abandoned()) - abandonedBefore };
}

/**
 * Every request of the load was sent before the signal and read by the server: each must have its answer. For
 * the POSTs, the idempotency key shows whether the handler ever ran: of the lost ones, those it never started
 * were dropped before their handler (`unaccepted`: a diagnosis of the loss, counted as lost all the same).
 */
async function judgeAnswers(sent: Sent[], signalAt: number, databaseUrl: string) {
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
  const keysStarted = new Set(
    (
      await sql<{ key: string }>(databaseUrl, "SELECT key FROM idempotency_keys WHERE key LIKE 'faults-shutdown-%'")
    ).map((r) => r.key),
  );
  const unaccepted = sent.filter(
    (s) => s.idempotencyKey !== undefined && s.outcome?.status !== 201 && !keysStarted.has(s.idempotencyKey),
  ).length;
  return { lost, lostExamples, unaccepted };
}

/** The fresh connections after SIGTERM: once one is refused, none may be served again. */
function judgeRefusals(probes: Outcome[], signalAt: number) {
  const firstRefusal = probes.findIndex(refused);
  const lastAccepted = probes.filter((o) => !refused(o)).at(-1);
  return {
    refused: probes.filter(refused).length,
    firstRefusal,
    acceptedAfterRefusal: firstRefusal < 0 ? 0 : probes.slice(firstRefusal).filter((o) => !refused(o)).length,
    acceptingForMs: lastAccepted ? lastAccepted.sentAt - signalAt : 0,
  };
}
