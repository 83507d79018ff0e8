// Differential parity: one seeded sequence of ~300 requests (reads with random filters, sorts and pages; writes
// of users, products and orders, status changes, idempotent retries; invalid bodies, unknown ids, bad queries,
// 405s, malformed JSON), sent in order to fresh instances started for this file only, each on its own fresh copy
// of the seeded template. Responses are normalised per docs/api.md "Parity" (support/parity-normalise.ts) and must be
// equal request by request.
//
// The first selected implementation is the reference: it runs on two fresh instances, which must agree with
// each other (a determinism check: without it, a difference between implementations could be mere noise), and
// every other implementation must agree with it. With a single implementation, the determinism check is all
// there is. Set CONTRACT_PARITY_SEED to walk another sequence, CONTRACT_PARITY_DUMP=<file> to write every
// request and normalised response of every instance to a JSON file.
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import { type PostgresServer, provisionPostgres } from "@api-ref/db/provision";
import {
  type Implementation,
  launch,
  NEEDS,
  type RunningImplementation,
  selectImplementations,
  send,
} from "@api-ref/harness";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  canonical,
  type NormalisedResponse,
  type Outcome,
  RunNormaliser,
  uuidsIn,
} from "./support/parity-normalise.ts";
import {
  generateSequence,
  NOTHING_CREATED_ID,
  type Produced,
  resolve,
  type SeedIds,
  type Step,
  type StepRequest,
} from "./support/parity-sequence.ts";
import { contract, targets } from "./targets.ts";

const SEED = Number(process.env.CONTRACT_PARITY_SEED ?? 0x9a417e);
const LENGTH = 300;
/** Pause after each answer, so that the time windows of consecutive requests never overlap. */
const GAP_MS = 6;
const PARITY_TIMEOUT_MS = 240_000;

interface Run {
  label: string;
  /** The requests as this instance received them (its own ids filled in) and what it answered, normalised. */
  sent: StepRequest[];
  normalised: NormalisedResponse[];
}

const impls = contract.adminUrl ? selectImplementations(process.env.CONTRACT_IMPLS) : [];
const reference = impls[0];

async function runSequence(url: string, steps: readonly Step[]): Promise<{ sent: StepRequest[]; outcomes: Outcome[] }> {
  const produced: Produced = { ids: new Map(), tokens: new Map() };
  const sent: StepRequest[] = [];
  const outcomes: Outcome[] = [];
  for (const step of steps) {
    const request = resolve(step.request, produced);
    sent.push(request);
    // Wall-clock times around the exchange, so that timestamps in responses can be attributed to it.
    const sentAt = Date.now();
    const answer = await send(url, request, { timeoutMs: 15_000 });
    const receivedAt = Date.now();
    let outcome: Outcome;
    if (answer.status === undefined || answer.error !== undefined) {
      outcome = { error: answer.error ?? "no response", sentAt, receivedAt };
    } else {
      const response = { status: answer.status, headers: answer.headers, text: answer.text, sentAt, receivedAt };
      outcome = { response };
      record(step.index, request, response.status, response.text, produced);
    }
    outcomes.push(outcome);
    const answeredAt = "response" in outcome ? outcome.response.receivedAt : outcome.receivedAt;
    while (Date.now() < answeredAt + GAP_MS) await new Promise((r) => setTimeout(r, 1));
  }
  return { sent, outcomes };
}

/** Remembers what a step created (an id) or issued (a token), for later steps that refer to it by position. */
function record(index: number, request: StepRequest, status: number, text: string, produced: Produced) {
  if (request.method !== "POST" || (status !== 200 && status !== 201)) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof body !== "object" || body === null) return;
  const b = body as { id?: unknown; token?: unknown; user?: { id?: unknown } };
  if (request.path === "/auth/register" && status === 201) {
    if (typeof b.user?.id === "string") produced.ids.set(index, b.user.id);
    if (typeof b.token === "string") produced.tokens.set(index, b.token);
  } else if (request.path === "/auth/login") {
    if (typeof b.token === "string") produced.tokens.set(index, b.token);
  } else if (status === 201 && typeof b.id === "string") {
    produced.ids.set(index, b.id);
  }
}

async function loadSeedIds(databaseUrl: string): Promise<SeedIds> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const ids = async (table: string) =>
      (await client.query<{ id: string }>(`SELECT id::text AS id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);
    return { users: await ids("users"), products: await ids("products"), orders: await ids("orders") };
  } finally {
    await client.end();
  }
}

// ---- the shared work: instances, the sequence, the runs (once for the file, on first use) -------------------

interface Instance {
  key: string;
  impl: Implementation;
}
const instances: Instance[] = reference
  ? [
      { key: `${reference.name} (instance 1)`, impl: reference },
      { key: `${reference.name} (instance 2)`, impl: reference },
      ...impls.slice(1).map((impl) => ({ key: impl.name, impl })),
    ]
  : [];

let server: PostgresServer | undefined;
const running: RunningImplementation[] = [];
let prepared: Promise<{ steps: Step[]; runs: Map<string, Run | Error> }> | undefined;

function prepare() {
  prepared ??= (async () => {
    const { adminUrl, template } = contract;
    if (!adminUrl || !template) throw new Error("parity needs the suite's database server");
    server = await provisionPostgres({ env: { PG_PROVIDER: "env", DATABASE_URL: adminUrl }, log() {} });
    const suffix = randomBytes(3).toString("hex");
    const databases: string[] = [];
    for (const [i, instance] of instances.entries()) {
      const name = `parity_${i}_${instance.impl.name.toLowerCase().replace(/[^a-z0-9]/g, "_")}_${suffix}`.slice(0, 63);
      databases.push(await server.createDatabase(name, { template }));
    }
    const seedIds = await loadSeedIds(databases[0] as string);
    const steps = generateSequence({ seed: SEED, length: LENGTH, seedIds });
    const known = new Set([
      ...seedIds.users,
      ...seedIds.products,
      ...seedIds.orders,
      ...steps.flatMap((s) => uuidsIn(JSON.stringify(s.request))),
      NOTHING_CREATED_ID,
    ]);
    const runs = new Map<string, Run | Error>();
    await Promise.all(
      instances.map(async (instance, i) => {
        try {
          const app = await launch(instance.impl, {
            databaseUrl: databases[i] as string,
            jwtSecret: contract.jwtSecret,
          });
          running.push(app);
          const { sent, outcomes } = await runSequence(app.url, steps);
          const normaliser = new RunNormaliser(known, outcomes);
          const normalised = outcomes.map((o, j) => normaliser.normalise(sent[j] as StepRequest, o));
          runs.set(instance.key, { label: instance.key, sent, normalised });
        } catch (error) {
          runs.set(instance.key, error as Error);
        }
      }),
    );
    const dump = process.env.CONTRACT_PARITY_DUMP;
    if (dump) {
      const all = [...runs].map(([key, run]) => [key, run instanceof Error ? run.message : run] as const);
      await writeFile(dump, JSON.stringify({ seed: SEED, steps, runs: Object.fromEntries(all) }, null, 2));
    }
    return { steps, runs };
  })();
  return prepared;
}

afterAll(async () => {
  await Promise.allSettled(running.map((r) => r.stop()));
  await server?.stop();
});

// ---- comparing ----------------------------------------------------------------------------------------------

const describeRequest = (r: StepRequest) =>
  [
    `${r.method} ${r.path}`,
    ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`),
    ...(r.body === undefined ? [] : [r.body.length > 500 ? `${r.body.slice(0, 500)}…` : r.body]),
  ].join("\n    ");

function expectSameRuns(steps: readonly Step[], a: Run, b: Run) {
  const i = a.normalised.findIndex((res, j) => !isDeepStrictEqual(res, b.normalised[j]));
  if (i === -1) return;
  const step = steps[i] as Step;
  const context = steps
    .slice(Math.max(0, i - 5), i)
    .map((s) => `  #${s.index} ${s.request.method} ${s.request.path} → ${a.normalised[s.index]?.status}`)
    .join("\n");
  throw new Error(
    [
      `first divergence at request #${i} of ${steps.length} (${step.label}; seed ${SEED}):`,
      `  as generated:\n    ${describeRequest(step.request)}`,
      `  as sent to ${a.label}:\n    ${describeRequest(a.sent[i] as StepRequest)}`,
      `  as sent to ${b.label}:\n    ${describeRequest(b.sent[i] as StepRequest)}`,
      `${a.label} answered (normalised):\n${canonical(a.normalised[i])}`,
      `${b.label} answered (normalised):\n${canonical(b.normalised[i])}`,
      `the requests before it:\n${context}`,
    ].join("\n"),
  );
}

/** Parity between two runs says nothing if they fail alike: neither may answer 5xx or not at all. */
function expectNoServerErrors(steps: readonly Step[], run: Run) {
  const bad = run.normalised
    .map((res, i) => ({ res, i }))
    .filter(({ res }) => res.status === "no answer" || res.status >= 500)
    .map(({ res, i }) => `#${i} ${describeRequest(run.sent[i] as StepRequest)}\n  → ${canonical(res)}`);
  expect(
    bad,
    `${run.label} answered ${bad.length} of ${steps.length} requests with a 5xx or not at all:\n${bad.slice(0, 3).join("\n")}`,
  ).toEqual([]);
}

function runOf(runs: Map<string, Run | Error>, key: string): Run {
  const run = runs.get(key);
  if (run instanceof Error) throw new Error(`${key} could not run the sequence: ${run.message}`);
  if (!run) throw new Error(`${key} did not run`);
  return run;
}

describe.each(targets)("$name", (target) => {
  if (!reference) {
    it("answers a seeded request sequence like the reference implementation", (ctx) => {
      ctx.skip(NEEDS.ownInstances);
    });
    return;
  }
  const impl = impls.find((i) => i.name === target.name);
  if (!impl) return;
  if (impl === reference) {
    it(
      `answers the same seeded sequence of ${LENGTH} requests identically on two fresh instances (determinism)`,
      async () => {
        const { steps, runs } = await prepare();
        const [one, two] = instances.slice(0, 2).map((i) => runOf(runs, i.key)) as [Run, Run];
        expectNoServerErrors(steps, one);
        expectNoServerErrors(steps, two);
        expectSameRuns(steps, one, two);
      },
      PARITY_TIMEOUT_MS,
    );
  } else {
    it(
      `answers a seeded sequence of ${LENGTH} requests exactly like ${reference.name}, the reference`,
      async () => {
        const { steps, runs } = await prepare();
        const ref = runOf(runs, instances[0]?.key ?? "");
        const run = runOf(runs, impl.name);
        expectNoServerErrors(steps, run);
        expectSameRuns(steps, ref, run);
      },
      PARITY_TIMEOUT_MS,
    );
  }
});
