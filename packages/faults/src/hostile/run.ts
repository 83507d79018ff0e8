// Hostile input at volume: fast-check generates requests for every route (valid ones from the contract's schemas,
// most of them mutated), they are sent concurrently with a fixed list of authorization attacks (attacks.ts), and
// every answer is judged against the oracle: the status and problem type the contract gives, a problem+json body
// for errors with the `www-authenticate` challenge of a 401 or 403, a body matching the route's schema for
// successes (a customer's holding only their own rows), an x-request-id on everything, and never a 5xx. Afterwards
// the data invariants are checked in SQL, among them that no attack made an admin or an order for someone else.
import { allowHeader, Problem, REQUEST_ID_PATTERN, routes } from "@api-ref/contract";
import { fixtureUsers } from "@api-ref/db/fixtures";
import type { Exchange, Outcome } from "@api-ref/harness";
import { curlOf, describeOutcome, forgeToken, jsonOf, keepAliveAgent, send, sql } from "@api-ref/harness";
import fc from "fast-check";
import type { FaultApp } from "../app.ts";
import type { HostileFigures } from "../report/figures.ts";
import { authorizationAttacks } from "./attacks.ts";
import { bearer } from "./draft.ts";
import { type GeneratedRequest, type Pools, requestArbitrary } from "./generate.ts";
import { type Challenge, type Expected, expectedFor, type KnownCaller } from "./oracle.ts";

export interface HostileOptions {
  requests: number;
  concurrency: number;
  seed: number;
  jwtSecret: string;
  /** Called every few seconds with how many requests are answered (progress on long runs). */
  onProgress?: (answered: number, total: number) => void;
}

const PROGRESS_EVERY_MS = 5_000;

/** What a `www-authenticate` value must look like for each challenge the oracle names. */
const CHALLENGES: Record<Challenge, (value: string) => boolean> = {
  missing: (v) => /^Bearer\b/.test(v) && !/error=/.test(v),
  invalid_token: (v) => /^Bearer\b.*error="invalid_token"/.test(v),
  insufficient_scope: (v) => /^Bearer\b.*error="insufficient_scope"/.test(v),
  any: (v) => /^Bearer\b/.test(v),
};

/** A row a customer was answered with that is not theirs (their orders, or themself), or undefined. */
export function foreignRow(body: unknown, owner: string): string | undefined {
  const page = body as { data?: unknown } | undefined;
  const items = Array.isArray(page?.data) ? page.data : [body];
  for (const item of items as Array<Record<string, unknown>>) {
    const who = "userId" in item ? item.userId : item.id;
    if (who !== owner) return `a row of user ${String(who)} answered to the customer ${owner}`;
    const embedded = (item.user as { id?: unknown } | undefined)?.id;
    if (embedded !== undefined && embedded !== owner) return `user ${String(embedded)} embedded for the customer`;
  }
  return undefined;
}
const PROBLEM_CONTENT_TYPE = /^application\/problem\+json(;\s*charset=utf-8)?$/i;
const JSON_CONTENT_TYPE = /^application\/json(;\s*charset=utf-8)?$/i;

/** What is wrong with an answer, or undefined when it is what the contract says. */
export function judge(exchange: Exchange, expected: Expected, outcome: Outcome): string | undefined {
  if (outcome.error !== undefined) return `no answer (${outcome.error})`;
  const status = outcome.status ?? 0;
  const allowed = expected.answers.filter((a) => a.status === status);
  if (allowed.length === 0)
    return `status ${status}, expected ${[...new Set(expected.answers.map((a) => a.status))].join(" or ")}`;
  const requestId = outcome.headers["x-request-id"];
  if (!requestId || !REQUEST_ID_PATTERN.test(requestId)) return `x-request-id ${JSON.stringify(requestId)}`;
  const sentId = exchange.headers?.["x-request-id"];
  if (sentId !== undefined && REQUEST_ID_PATTERN.test(sentId) && requestId !== sentId)
    return `x-request-id ${requestId} instead of the request's own ${sentId}`;
  if (status >= 400) {
    if (!PROBLEM_CONTENT_TYPE.test(outcome.headers["content-type"] ?? ""))
      return `content-type ${outcome.headers["content-type"]} on a ${status}`;
    const problem = Problem.safeParse(jsonOf(outcome));
    if (!problem.success) return "the error body is not a problem";
    if (problem.data.status !== status) return `problem status ${problem.data.status} on a ${status}`;
    const types = allowed.map((a) => a.type).filter((t): t is string => t !== undefined);
    if (types.length > 0 && !types.includes(problem.data.type))
      return `problem type ${problem.data.type}, expected ${types.join(" or ")}`;
    const challenge = outcome.headers["www-authenticate"];
    if (status === 401 || status === 403) {
      const wanted = allowed.map((a) => a.challenge ?? "any");
      if (challenge === undefined || !wanted.some((w) => CHALLENGES[w](challenge)))
        return `www-authenticate ${JSON.stringify(challenge)} on a ${status}, expected ${[...new Set(wanted)].join(" or ")}`;
    }
    if (status === 405 && expected.template && outcome.headers.allow !== allowHeader(expected.template))
      return `allow ${JSON.stringify(outcome.headers.allow)}, expected ${allowHeader(expected.template)}`;
    return undefined;
  }
  const route = routes.find((r) => r.path === expected.template && r.method === exchange.method);
  const schema = route?.success.schema;
  if (schema && status === route.success.status) {
    if (!JSON_CONTENT_TYPE.test(outcome.headers["content-type"] ?? ""))
      return `content-type ${outcome.headers["content-type"]} on a ${status}`;
    const parsed = schema.safeParse(jsonOf(outcome));
    if (!parsed.success) return `the body does not match the route's schema: ${parsed.error.issues[0]?.message}`;
    if (expected.owner !== undefined) return foreignRow(parsed.data, expected.owner);
  }
  return undefined;
}

async function poolsOf(app: FaultApp, jwtSecret: string): Promise<Pools> {
  // The admin is in no pool: no generated request may delete or change the caller the admin's requests come from.
  const admin = fixtureUsers.admin.id;
  const ids = async (query: string, values: unknown[] = []) =>
    (await sql<{ id: string }>(app.databaseUrl, query, values)).map((r) => r.id);
  const emails = (await sql<{ email: string }>(app.databaseUrl, "SELECT email FROM users ORDER BY id LIMIT 50")).map(
    (r) => r.email,
  );
  // The pools are read before the token's user exists: read after, its id was in the users pool whenever it sorted
  // among the first 200, so a generated DELETE /users/:id (or a PATCH of its e-mail) could remove it while other
  // requests ran, and GET /auth/me answered 401 where the oracle expected 200 (19 such mismatches on express).
  const userIds = await ids("SELECT id FROM users WHERE id <> $1 ORDER BY id LIMIT 200", [admin]);
  const productIds = await ids("SELECT id FROM products ORDER BY id LIMIT 200");
  const orderIds = await ids("SELECT id FROM orders ORDER BY id LIMIT 200");
  const registeredEmail = `hostile-${Date.now()}@faults.example.com`;
  // The customer the requests are sent as, registered through the API with its own token: no generated request can
  // delete it (its id is in no pool, and its own requests never DELETE it), and it owns no order a request names.
  const registered = await send(app.url, {
    method: "POST",
    path: "/auth/register",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      email: registeredEmail,
      name: "Hostile",
      password: "hostile-password",
    }),
  });
  const { user, token } = (jsonOf(registered) ?? {}) as { user?: { id: string }; token?: string };
  if (registered.status !== 201 || !user || !token)
    throw new Error(
      `could not register the token user: ${describeOutcome({ method: "POST", path: "/auth/register" }, registered)}`,
    );
  if (userIds.includes(user.id) || emails.includes(registeredEmail))
    throw new Error("the token's user is in a pool: generated requests could delete it while others use its token");
  return {
    userIds,
    productIds,
    orderIds,
    emails,
    customer: { id: user.id, role: "customer", token },
    admin: { id: admin, role: "admin", token: forgeToken(jwtSecret, admin) },
    jwtSecret,
  };
}

export async function runHostile(
  app: FaultApp,
  options: HostileOptions,
): Promise<{ figures: HostileFigures; violations: string[] }> {
  const pools = await poolsOf(app, options.jwtSecret);
  const callers = new Map<string, KnownCaller>(
    [pools.customer, pools.admin].map((c) => [bearer(c), { id: c.id, role: c.role }]),
  );
  const oracle = { callers };
  const [{ now: startedAt } = { now: "" }] = await sql<{ now: string }>(app.databaseUrl, "SELECT now()::text AS now");
  // Every attack of the fixed list, then the generated requests: each judged by the same oracle.
  const attacks = authorizationAttacks(pools);
  const requests: GeneratedRequest[] = [
    ...attacks,
    ...fc.sample(requestArbitrary(pools), { numRuns: options.requests, seed: options.seed }),
  ];
  const agent = keepAliveAgent(options.concurrency);
  const byStatus: Record<string, number> = {};
  const mismatches: string[] = [];
  let serverErrors = 0;
  let valid = 0;
  let next = 0;
  let answered = 0;
  let lastNote = Date.now();
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++] as GeneratedRequest;
      const expected = expectedFor(request.exchange, oracle);
      if (expected.answers.some((a) => a.status < 300)) valid++;
      const outcome = await send(app.url, request.exchange, { agent, timeoutMs: 30_000 });
      answered++;
      if (Date.now() - lastNote >= PROGRESS_EVERY_MS && answered < requests.length) {
        lastNote = Date.now();
        options.onProgress?.(answered, requests.length);
      }
      const key = outcome.status === undefined ? (outcome.error ?? "?") : String(outcome.status);
      byStatus[key] = (byStatus[key] ?? 0) + 1;
      if ((outcome.status ?? 0) >= 500) serverErrors++;
      const wrong = judge(request.exchange, expected, outcome);
      if (wrong !== undefined) {
        mismatches.push(
          `${wrong}\n    ${request.label}\n    ${describeOutcome(request.exchange, outcome)}\n    ${curlOf(app.url, request.exchange)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();

  // The data, afterwards: what the database's own constraints also enforce, checked so that a migration that
  // lost one is noticed too.
  // An admin is made by a command or the seed, never through the API; an order placed during the run is its caller's.
  const invariants = await sql<{ check: string; n: string }>(
    app.databaseUrl,
    `SELECT 'stock below zero' AS check, count(*) AS n FROM products WHERE stock < 0
     UNION ALL SELECT 'total is not price × quantity', count(*) FROM orders WHERE total_cents <> unit_price_cents::bigint * quantity
     UNION ALL SELECT 'quantity outside 1–100', count(*) FROM orders WHERE quantity NOT BETWEEN 1 AND 100
     UNION ALL SELECT 'e-mail not lower-cased', count(*) FROM users WHERE email <> lower(email)
     UNION ALL SELECT 'an admin other than the seed''s', count(*) FROM users WHERE role = 'admin' AND id <> $1
     UNION ALL SELECT 'an order placed for someone other than its caller', count(*) FROM orders
       WHERE created_at >= $3::timestamptz AND user_id NOT IN ($1, $2)`,
    [pools.admin.id, pools.customer.id, startedAt],
  );
  const broken = invariants.filter((r) => Number(r.n) > 0);
  const violations: string[] = [];
  if (serverErrors > 0) violations.push(`${serverErrors} request(s) got a 5xx`);
  if (mismatches.length > 0)
    violations.push(
      `${mismatches.length} answer(s) differ from the contract (seed ${options.seed}):\n  ${mismatches.slice(0, 10).join("\n  ")}`,
    );
  for (const r of broken) violations.push(`invariant broken: ${r.check} (${r.n} rows)`);
  return {
    violations,
    figures: {
      fault: "hostile-input",
      requests: requests.length,
      attacks: attacks.length,
      valid,
      mutated: requests.length - valid,
      serverErrors,
      mismatches: mismatches.length,
      byStatus,
      invariantViolations: broken.length,
      seed: options.seed,
    },
  };
}
