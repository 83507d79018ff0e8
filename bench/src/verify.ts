// Verification: before a scenario is measured against a server, a random sample of the exact requests it will
// send goes to that server once, and every answer is checked against the contract (status, content type,
// schema, and a check that the answer belongs to this request). A server that fails is not measured.
import {
  type BenchRequest,
  createRng,
  type Plan,
  type Pools,
  type Scenario,
  type SequenceContext,
} from "./scenarios/catalog.ts";

export interface VerificationFailure {
  request: string;
  problem: string;
}

export interface Verification {
  ok: boolean;
  /** Requests sent and checked. */
  checked: number;
  /** The first few failures (all of them are counted in `failed`). */
  failures: VerificationFailure[];
  failed: number;
}

const MAX_REPORTED = 5;

/** What is wrong with one response, or undefined when it is what the contract says. */
export function responseProblem(req: BenchRequest, status: number, headers: Headers, text: string): string | undefined {
  const { expect } = req;
  if (status !== expect.status) {
    const snippet = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    return `status ${status}, expected ${expect.status}${snippet ? `: ${snippet}` : ""}`;
  }
  if (!headers.get("x-request-id")) return "no x-request-id header";
  if (expect.body === "empty") return text === "" ? undefined : "a 204 with a body";
  if (expect.body === "text") return expect.check?.(text, headers);
  const type = headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) return `content-type is "${type}", expected application/json`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return "the body is not valid JSON";
  }
  if (expect.schema) {
    const parsed = expect.schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return `does not match the contract schema: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`;
    }
  }
  return expect.check?.(body, headers);
}

async function send(baseUrl: string, req: BenchRequest, timeoutMs: number) {
  const res = await fetch(`${baseUrl}${req.path}`, {
    method: req.method,
    headers: req.headers ?? {},
    ...(req.body !== undefined ? { body: req.body } : {}),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/**
 * Sends `sampleSize` requests of the plan (a random sample of a pool; whole cycles of a sequence, in order,
 * with the sequence's context) and checks each answer.
 */
export async function verifyPlan(
  baseUrl: string,
  plan: Plan,
  options: { sampleSize: number; seed: number; timeoutMs?: number },
): Promise<Verification> {
  const rng = createRng(options.seed);
  const failures: VerificationFailure[] = [];
  let failed = 0;
  let checked = 0;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const check = async (req: BenchRequest) => {
    checked++;
    let problem: string | undefined;
    let status = 0;
    let text = "";
    try {
      const res = await send(baseUrl, req, timeoutMs);
      ({ status, text } = res);
      problem = responseProblem(req, res.status, res.headers, res.text);
    } catch (error) {
      problem = `request failed: ${(error as Error).message}`;
    }
    if (problem) {
      failed++;
      if (failures.length < MAX_REPORTED) failures.push({ request: `${req.method} ${req.path}`, problem });
    }
    return { status, text };
  };

  if (plan.kind === "pool") {
    const indexes = plan.requests.map((_, i) => i);
    for (let i = indexes.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [indexes[i], indexes[j]] = [indexes[j] as number, indexes[i] as number];
    }
    for (const i of indexes.slice(0, Math.max(1, options.sampleSize))) await check(plan.requests[i] as BenchRequest);
  } else {
    const cycles = Math.max(1, Math.ceil(options.sampleSize / plan.steps.length));
    for (let cycle = 0; cycle < cycles; cycle++) {
      const ctx: SequenceContext = {};
      for (const step of plan.steps) {
        const { status, text } = await check(step.build(ctx, rng));
        step.onResponse?.(status, text, ctx);
      }
    }
  }
  return { ok: failed === 0, checked, failures, failed };
}

export function verifyScenario(
  baseUrl: string,
  scenario: Scenario,
  pools: Pools,
  options: { sampleSize: number; seed: number; timeoutMs?: number },
): Promise<Verification> {
  // The plan is built from the run's seed, exactly as the load generator builds it; the sample from another.
  const plan = scenario.plan(pools, createRng(options.seed));
  return verifyPlan(baseUrl, plan, { ...options, seed: options.seed + 1 });
}
