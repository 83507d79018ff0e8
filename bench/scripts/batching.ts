// pnpm --dir bench run batching [--impl a,b,…] [--requests N] [--concurrency N,…] — how many statements each server
// sends PostgreSQL per GET /users/:id, one request at a time and with many in flight.
//
// Prisma's client batches `findUnique` calls made before its `process.nextTick` callback runs into one
// `SELECT … WHERE id IN (…)` (its DataLoader). On Node the tick runs after each request's callback, so requests keep
// a query each; a runtime whose `process.nextTick` runs later (Deno's `node:process`) lets requests in flight share
// one. This counts it: pg_stat_statements' calls (preloaded by packages/db's provisioning) over N requests to
// seeded users, at each concurrency. A server that sends fewer statements than it answers requests does less
// database work per request: its user-by-id figure is then not the same workload as the others'. Each request is
// a customer reading themself with their bearer token, as the bench's user-by-id sends it: the caller's role is read
// (a `findUnique`, batched like the other) before the user.
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { applyMigrations, seedDatabase } from "@api-ref/db";
import { provisionPostgres } from "@api-ref/db/provision";
import { bearerCache, build, implementationNamed, launch } from "@api-ref/harness";
import pg from "pg";

const usage =
  "usage: pnpm --dir bench run batching [--impl NAME,… (default hono,hono-bun,hono-deno)] [--requests N (4000)] [--concurrency N,… (1,100)]";
const { values: args } = (() => {
  try {
    return parseArgs({
      options: {
        impl: { type: "string", default: "hono,hono-bun,hono-deno" },
        requests: { type: "string", default: "4000" },
        concurrency: { type: "string", default: "1,100" },
      },
    });
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
})();
const REQUESTS = Number(args.requests);
const CONCURRENCY = args.concurrency.split(",").map(Number);
let impls: ReturnType<typeof implementationNamed>[];
try {
  impls = args.impl.split(",").map((name) => implementationNamed(name.trim()));
} catch (error) {
  process.stderr.write(`error: ${(error as Error).message}\n${usage}\n`);
  process.exit(2);
}
if (!Number.isInteger(REQUESTS) || REQUESTS < 1 || CONCURRENCY.some((c) => !Number.isInteger(c) || c < 1)) {
  process.stderr.write(`error: --requests and --concurrency take positive integers\n${usage}\n`);
  process.exit(2);
}
const unavailable = impls.find((i) => i.unavailable);
if (unavailable) {
  process.stderr.write(`error: ${unavailable.name} cannot run here: ${unavailable.unavailable}\n`);
  process.exit(1);
}

const JWT_SECRET = randomBytes(32).toString("base64url");
const bearer = bearerCache(JWT_SECRET);
/** GET /users/:id by that user. */
const getSelf = (url: string, id: string) => fetch(`${url}/users/${id}`, { headers: { authorization: bearer(id) } });

/** N requests, `concurrency` at a time, to seeded users in turn; every answer must be 200. */
async function load(url: string, ids: string[], concurrency: number) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < REQUESTS) {
        const id = ids[next++ % ids.length] as string;
        const response = await getSelf(url, id);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`GET /users/${id} answered ${response.status}`);
      }
    }),
  );
}

const server = await provisionPostgres({ log: (m) => process.stderr.write(`${m}\n`) });
const lines: string[] = [];
try {
  const databaseUrl = await server.createDatabase(`batching_${randomBytes(3).toString("hex")}`);
  await applyMigrations(databaseUrl);
  await seedDatabase(databaseUrl);
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  const ids = (
    await admin.query<{ id: string }>("SELECT id FROM users WHERE role = 'customer' ORDER BY id LIMIT 500")
  ).rows.map((r) => r.id);
  const statements = async () =>
    (
      await admin.query<{ calls: number }>(
        `SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_statements
         WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND query NOT ILIKE '%pg_stat_statements%'`,
      )
    ).rows[0]?.calls ?? 0;
  lines.push(
    `GET /users/:id, ${REQUESTS} requests per line to ${ids.length} seeded users, after ${ids.length} to warm up`,
    "",
    "| server | runtime | requests in flight | statements per request |",
    "|---|---|--:|--:|",
  );
  for (const impl of impls) {
    if (impl.build) {
      const built = await build(impl);
      if (!built.ok) throw new Error(`building ${impl.name} failed: ${built.error}`);
    }
    const running = await launch(impl, { databaseUrl, jwtSecret: JWT_SECRET });
    try {
      for (const id of ids) await (await getSelf(running.url, id)).arrayBuffer();
      for (const concurrency of CONCURRENCY) {
        process.stderr.write(`batching: ${impl.name}, ${concurrency} in flight\n`);
        await admin.query("SELECT pg_stat_statements_reset()");
        const before = await statements();
        await load(running.url, ids, concurrency);
        const per = ((await statements()) - before) / REQUESTS;
        lines.push(`| ${impl.name} | ${impl.runtime ?? "node"} | ${concurrency} | ${per.toFixed(2)} |`);
      }
    } finally {
      await running.stop();
    }
  }
  await admin.end();
} finally {
  await server.stop();
}
console.log(lines.join("\n"));
