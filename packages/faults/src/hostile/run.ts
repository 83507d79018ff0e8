// Hostile input at volume: fast-check generates requests for every route (valid ones from the contract's schemas,
// most of them mutated), they are sent concurrently, and every answer is judged against the oracle: the status and
// problem type the contract gives, a problem+json body for errors, a body matching the route's schema for
// successes, an x-request-id on everything, and never a 5xx. Afterwards the data invariants are checked in SQL.
import { allowHeader, Problem, REQUEST_ID_PATTERN, routes } from "@api-ref/contract";
import type { Exchange, Outcome } from "@api-ref/harness";
import { curlOf, describeOutcome, jsonOf, keepAliveAgent, send, sql } from "@api-ref/harness";
import fc from "fast-check";
import type { FaultApp } from "../app.ts";
import type { HostileFigures } from "../report/figures.ts";
import { type GeneratedRequest, type Pools, requestArbitrary } from "./generate.ts";
import { type Expected, expectedFor } from "./oracle.ts";

export interface HostileOptions {
  requests: number;
  concurrency: number;
  seed: number;
  jwtSecret: string;
  /** Called every few seconds with how many requests are answered (progress on long runs). */
  onProgress?: (answered: number, total: number) => void;
}

const PROGRESS_EVERY_MS = 5_000;
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
  }
  return undefined;
}

async function poolsOf(app: FaultApp, jwtSecret: string): Promise<Pools> {
  const ids = async (table: string) =>
    (await sql<{ id: string }>(app.databaseUrl, `SELECT id FROM ${table} ORDER BY id LIMIT 200`)).map((r) => r.id);
  const emails = (await sql<{ email: string }>(app.databaseUrl, "SELECT email FROM users ORDER BY id LIMIT 50")).map(
    (r) => r.email,
  );
  // The pools are read before the token's user exists: read after, its id was in the users pool whenever it sorted
  // among the first 200, so a generated DELETE /users/:id (or a PATCH of its e-mail) could remove it while other
  // requests ran, and GET /auth/me answered 401 where the oracle expected 200 (19 such mismatches on express).
  const [userIds, productIds, orderIds] = [await ids("users"), await ids("products"), await ids("orders")];
  const registeredEmail = `hostile-${Date.now()}@faults.example.com`;
  // A user of its own, with a token, for GET /auth/me: no generated request can delete or change it, since its id
  // and e-mail are in no pool.
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
    token,
    tokenUserId: user.id,
    jwtSecret,
  };
}

export async function runHostile(
  app: FaultApp,
  options: HostileOptions,
): Promise<{ figures: HostileFigures; violations: string[] }> {
  const pools = await poolsOf(app, options.jwtSecret);
  const oracle = { validAuthorizations: new Set([`Bearer ${pools.token}`]) };
  const requests: GeneratedRequest[] = fc.sample(requestArbitrary(pools), {
    numRuns: options.requests,
    seed: options.seed,
  });
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
  const invariants = await sql<{ check: string; n: string }>(
    app.databaseUrl,
    `SELECT 'stock below zero' AS check, count(*) AS n FROM products WHERE stock < 0
     UNION ALL SELECT 'total is not price × quantity', count(*) FROM orders WHERE total_cents <> unit_price_cents::bigint * quantity
     UNION ALL SELECT 'quantity outside 1–100', count(*) FROM orders WHERE quantity NOT BETWEEN 1 AND 100
     UNION ALL SELECT 'e-mail not lower-cased', count(*) FROM users WHERE email <> lower(email)`,
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
