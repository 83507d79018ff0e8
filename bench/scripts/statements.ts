// pnpm --dir bench run statements — what each data-access path sends PostgreSQL per request, on user-by-id,
// products-list and order-create: the raw baseline (node-http-pg), packages/data-access through Prisma's client API
// (node-http-prisma) and through its raw-SQL path (node-http-prisma[sql], DATA_ACCESS=sql).
//
// Each baseline server runs with one pooled connection (DB_POOL_SIZE=1, so that a statement prepared once is
// reused, as on every connection of a warm pool) behind a small TCP proxy that reads the frontend/backend protocol
// and counts messages; PostgreSQL's pg_stat_statements (preloaded by packages/db's provisioning) gives calls and
// execution time per statement. Each route is warmed up first, then measured over --requests sequential requests.
// Each is sent as the bench sends it: user-by-id and order-create by a customer (the buyer, reading themself and
// ordering for themself), with a bearer token, so that authenticating the caller is part of what is counted.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import net from "node:net";
import { parseArgs } from "node:util";
import { applyMigrations, fixtureProducts, fixtureUsers, seedDatabase } from "@api-ref/db";
import { provisionPostgres } from "@api-ref/db/provision";
import { bearerFor, launch } from "@api-ref/harness";
import pg from "pg";
import { BASELINES } from "../src/baselines.ts";

const { values: args } = parseArgs({
  options: { requests: { type: "string", default: "1000" }, warmup: { type: "string", default: "30" } },
});
const REQUESTS = Number(args.requests);
const WARMUP = Number(args.warmup);
if (!Number.isInteger(REQUESTS) || REQUESTS < 1 || !Number.isInteger(WARMUP) || WARMUP < 1) {
  process.stderr.write("usage: pnpm --dir bench run statements [--requests N (default 1000)] [--warmup N (30)]\n");
  process.exit(2);
}

const ROUTES = [
  { name: "user-by-id", method: "GET", path: `/users/${fixtureUsers.buyer.id}` },
  {
    name: "products-list",
    method: "GET",
    path: "/products?minPriceCents=1000&maxPriceCents=50000&inStock=true&sort=-priceCents&page=2&limit=20",
  },
  {
    name: "order-create",
    method: "POST",
    path: "/orders",
    body: { productId: fixtureProducts.unordered.id, quantity: 1 },
  },
] as const;
/** The routes that need a caller: the buyer's. */
const SIGNED_IN = new Set(["user-by-id", "order-create"]);
const JWT_SECRET = randomBytes(32).toString("base64url");
const TARGETS = ["node-http-pg", "node-http-prisma", "node-http-prisma[sql]"];

/** Frontend messages by type byte, and what the backend answers that marks a round trip. */
const FRONTEND: Record<string, string> = {
  P: "Parse",
  B: "Bind",
  D: "Describe",
  E: "Execute",
  S: "Sync",
  Q: "Query",
  C: "Close",
  H: "Flush",
};

interface Tally {
  messages: Record<string, number>;
  /** Statements run (Bind of a named or unnamed statement, or a simple Query), by kind and text, with how often. */
  statements: Map<string, { kind: string; count: number }>;
  readyForQuery: number;
}
const tally = (): Tally => ({ messages: {}, statements: new Map(), readyForQuery: 0 });
let current: Tally | undefined;

const cstring = (buf: Buffer, at: number) => {
  const end = buf.indexOf(0, at);
  return { text: buf.toString("utf8", at, end), next: end + 1 };
};

/** Splits a protocol stream into messages (the first frontend message, the startup packet, has no type byte). */
function messages(untypedFirst: boolean, onMessage: (type: string, body: Buffer) => void) {
  let pending = Buffer.alloc(0);
  let first = untypedFirst;
  return (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (first) {
        if (pending.length < 4) return;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return;
        pending = pending.subarray(length);
        first = false;
        continue;
      }
      if (pending.length < 5) return;
      const length = pending.readInt32BE(1);
      if (pending.length < 1 + length) return;
      onMessage(String.fromCharCode(pending[0] as number), pending.subarray(5, 1 + length));
      pending = pending.subarray(1 + length);
    }
  };
}

/** Prepared statements' texts by name, as Parse declared them (the same names on every connection). */
const prepared = new Map<string, string>();

function countFrontend(type: string, body: Buffer) {
  let statement: { text: string; kind: string } | undefined;
  if (type === "P") {
    const stmt = cstring(body, 0);
    const text = cstring(body, stmt.next).text;
    prepared.set(stmt.text, text);
  } else if (type === "B") {
    // Bind: portal name, then the statement it runs, whether parsed now or on an earlier request.
    const portal = cstring(body, 0);
    const name = cstring(body, portal.next).text;
    statement = { text: prepared.get(name) ?? "?", kind: name ? "named" : "unnamed" };
  } else if (type === "Q") statement = { text: cstring(body, 0).text, kind: "simple" };
  if (!current) return;
  const label = FRONTEND[type] ?? type;
  current.messages[label] = (current.messages[label] ?? 0) + 1;
  if (statement) {
    const text = statement.text.replace(/\s+/g, " ").trim();
    const key = `${statement.kind} ${text}`;
    const seen = current.statements.get(key) ?? { kind: statement.kind, count: 0 };
    seen.count += 1;
    current.statements.set(key, seen);
  }
}

/** A TCP proxy in front of PostgreSQL that counts what crosses it. */
async function startProxy(upstreamPort: number) {
  const server = net.createServer((client) => {
    const upstream = net.connect(upstreamPort, "127.0.0.1");
    const fromClient = messages(true, countFrontend);
    const fromServer = messages(false, (type) => {
      if (type === "Z" && current) current.readyForQuery += 1;
    });
    client.on("data", (c: Buffer) => {
      fromClient(c);
      upstream.write(c);
    });
    upstream.on("data", (c: Buffer) => {
      fromServer(c);
      client.write(c);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as net.AddressInfo).port };
}

/** CPU seconds (user + system) the server processes of this database have used so far, from /proc. */
async function backendCpuSeconds(admin: pg.Client): Promise<number | undefined> {
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  let ticks = 0;
  for (const { pid } of rows) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
    if (!stat) return undefined;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

async function send(url: string, route: (typeof ROUTES)[number]) {
  const headers: Record<string, string> = "body" in route ? { "content-type": "application/json" } : {};
  if (SIGNED_IN.has(route.name)) headers.authorization = bearerFor(JWT_SECRET, fixtureUsers.buyer.id);
  const response = await fetch(`${url}${route.path}`, {
    method: route.method,
    headers,
    body: "body" in route ? JSON.stringify(route.body) : undefined,
  });
  await response.arrayBuffer();
  if (response.status >= 300) throw new Error(`${route.method} ${route.path} answered ${response.status}`);
}

const server = await provisionPostgres({ log: (m) => process.stderr.write(`${m}\n`) });
const proxies: net.Server[] = [];
try {
  const databaseUrl = await server.createDatabase(`statements_${randomBytes(3).toString("hex")}`);
  await applyMigrations(databaseUrl);
  await seedDatabase(databaseUrl, { scale: 0.1 });
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  admin.on("error", () => {});
  await admin.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  // Planning time too (off by default), for this throwaway database's sessions only.
  await admin.query(
    `ALTER DATABASE "${new URL(databaseUrl).pathname.slice(1)}" SET pg_stat_statements.track_planning = on`,
  );

  const { port: pgPort } = new URL(databaseUrl);
  const proxy = await startProxy(Number(pgPort));
  proxies.push(proxy.server);
  const viaProxy = new URL(databaseUrl);
  viaProxy.port = String(proxy.port);

  const results: { target: string; route: string; tally: Tally; stats: StatRow[]; backendCpuUs?: number }[] = [];
  type StatRow = {
    query: string;
    calls: number;
    exec_ms: number;
    plan_ms: number;
    plans: number;
  };
  for (const name of TARGETS) {
    const impl = BASELINES.find((b) => b.name === name);
    if (!impl) throw new Error(`no baseline ${name}`);
    const running = await launch(impl, {
      databaseUrl: viaProxy.toString(),
      jwtSecret: JWT_SECRET,
      env: { DB_POOL_SIZE: "1" },
    });
    try {
      for (const route of ROUTES) {
        process.stderr.write(`statements: ${name} ${route.name}\n`);
        // Enough stock for every order this run places.
        await admin.query("UPDATE products SET stock = 1000000 WHERE id = $1", [fixtureProducts.unordered.id]);
        for (let i = 0; i < WARMUP; i++) await send(running.url, route);
        await admin.query("SELECT pg_stat_statements_reset()");
        const cpuBefore = await backendCpuSeconds(admin);
        current = tally();
        for (let i = 0; i < REQUESTS; i++) await send(running.url, route);
        const measured = current;
        current = undefined;
        const cpuAfter = await backendCpuSeconds(admin);
        const backendCpuUs =
          cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / REQUESTS;
        const { rows } = await admin.query<StatRow>(
          `SELECT query, calls::int, total_exec_time AS exec_ms, total_plan_time AS plan_ms, plans::int
           FROM pg_stat_statements
           WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
             AND query NOT ILIKE '%pg_stat_statements%' AND query NOT ILIKE '%pg_stat_activity%' ORDER BY calls DESC, query`,
        );
        results.push({ target: name, route: route.name, tally: measured, stats: rows, backendCpuUs });
      }
    } finally {
      await running.stop();
    }
  }
  await admin.end();

  const per = (n: number | undefined) => ((n ?? 0) / REQUESTS).toFixed(2).replace(/\.00$/, "");
  const out: string[] = [
    `What each path sends PostgreSQL per request (${REQUESTS} sequential requests after ${WARMUP} to warm up, one pooled connection; figures per request; backend CPU in 10 ms clock ticks over the whole measurement).`,
    "",
  ];
  for (const route of ROUTES) {
    out.push(`## ${route.name} (${route.method} ${route.path.split("?")[0]})`, "");
    out.push(
      "| path | round trips | Parse | Bind | Describe | Execute | Sync | Query (simple) | BEGIN / COMMIT | statement calls | plans made | planning, µs | execution, µs | backend CPU (/proc), µs |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const r of results.filter((x) => x.route === route.name)) {
      const m = r.tally.messages;
      const calls = r.stats.reduce((a, s) => a + s.calls, 0);
      const sum = (f: (s: StatRow) => number) => r.stats.reduce((a, s) => a + f(s), 0);
      const execUs = (sum((s) => s.exec_ms) * 1000) / REQUESTS;
      const planUs = (sum((s) => s.plan_ms) * 1000) / REQUESTS;
      const begins = [...r.tally.statements]
        .filter(([key]) => /^\S+ (BEGIN|COMMIT)\b/i.test(key))
        .reduce((a, [, s]) => a + s.count, 0);
      out.push(
        `| ${r.target} | ${per(r.tally.readyForQuery)} | ${per(m.Parse)} | ${per(m.Bind)} | ${per(m.Describe)} | ${per(m.Execute)} | ${per(m.Sync)} | ${per(m.Query)} | ${per(begins)} | ${per(calls)} | ${per(sum((s) => s.plans))} | ${planUs.toFixed(1)} | ${execUs.toFixed(1)} | ${r.backendCpuUs === undefined ? "–" : r.backendCpuUs.toFixed(0)} |`,
      );
    }
    out.push("");
    for (const r of results.filter((x) => x.route === route.name)) {
      out.push(`${r.target}:`);
      for (const s of r.stats) {
        out.push(
          `  ${per(s.calls)}× plan ${((s.plan_ms * 1000) / Math.max(1, s.calls)).toFixed(1).padStart(5)} µs (${per(s.plans)} plans), run ${((s.exec_ms * 1000) / Math.max(1, s.calls)).toFixed(1).padStart(6)} µs  ${s.query.replace(/\s+/g, " ").slice(0, 220)}`,
        );
      }
      const sent = [...r.tally.statements].map(
        ([key, s]) => `${per(s.count)}× ${s.kind}: ${key.slice(s.kind.length + 1, s.kind.length + 61)}`,
      );
      out.push(`  on the wire: ${sent.join(" · ")}`);
    }
    out.push("");
  }
  process.stdout.write(`${out.join("\n")}\n`);
} finally {
  for (const p of proxies) p.close();
  await server.stop();
}
