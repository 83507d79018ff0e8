// Fixed-rate (open-loop) load without coordinated omission, the method of wrk2: request i is due at
// t0 + i/rate whatever happened to earlier requests, and its latency is counted from when it was due, not from
// when a free connection finally sent it. A server that stalls therefore shows its stall in every request that
// had to wait, instead of the load generator quietly sending less (autocannon's own rate limit sends each
// connection's quota in a burst at the start of every second and measures from the actual send).
import http from "node:http";
import { performance } from "node:perf_hooks";
import type { BenchRequest, Plan, Rng, SequenceContext, Step } from "../scenarios.ts";
import { LatencyRecorder, type LoadOutcome, StatusCounter } from "./outcome.ts";

export interface FixedRateOptions {
  url: string;
  /** Requests per second, across all connections. */
  rate: number;
  connections: number;
  durationS: number;
  plan: Plan;
  rng: Rng;
  timeoutS: number;
}

interface VirtualConnection {
  ctx: SequenceContext;
  step: number;
}

export function runFixedRate(options: FixedRateOptions): Promise<LoadOutcome> {
  const { plan, rng } = options;
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies = new LatencyRecorder();
  const statuses = new StatusCounter();
  let errors = 0;
  let timeouts = 0;
  const intervalMs = 1000 / options.rate;
  const free: VirtualConnection[] = Array.from({ length: options.connections }, () => ({ ctx: {}, step: 0 }));
  const due: number[] = [];
  let dueHead = 0;
  let scheduled = 0;
  let inFlight = 0;

  const next = (vc: VirtualConnection): { req: BenchRequest; step?: Step } => {
    if (plan.kind === "pool") return { req: rng.pick(plan.requests) };
    const step = plan.steps[vc.step] as Step;
    vc.step = (vc.step + 1) % plan.steps.length;
    if (vc.step === 0) vc.ctx = {};
    return { req: step.build(vc.ctx, rng), step };
  };

  return new Promise((resolve) => {
    const t0 = performance.now();
    const scheduleEnd = t0 + options.durationS * 1000;
    // After the schedule, the requests still due or in flight get a grace as long as the run itself (at least 1 s,
    // at most the request timeout). A server that fell behind does not catch up in it: what is left then is
    // abandoned and recorded with the latency it had reached (a lower bound), so that the queue still shows in
    // the percentiles while an overloaded step costs seconds, not the request timeout.
    const graceS = Math.max(1, Math.min(options.timeoutS, options.durationS));
    const drainDeadline = scheduleEnd + graceS * 1000;
    const inFlightDue = new Set<number>();
    let finished = false;

    const finish = () => {
      if (finished) return;
      finished = true;
      const now = performance.now();
      for (const dueAt of inFlightDue) latencies.record(now - dueAt);
      for (let i = dueHead; i < due.length; i++) latencies.record(now - (due[i] as number));
      agent.destroy();
      const elapsedS = (performance.now() - t0) / 1000;
      resolve({
        durationS: elapsedS,
        completed: statuses.total,
        requestsPerSecond: statuses.total / elapsedS,
        statusCounts: statuses.counts,
        non2xx: statuses.non2xx,
        errors,
        timeouts,
        latency: latencies.summary(),
        fixedRate: { target: options.rate, scheduled, unsent: scheduled - dueHead, abandoned: inFlightDue.size },
      });
    };

    const fire = (vc: VirtualConnection, dueAt: number) => {
      const { req, step } = next(vc);
      inFlight++;
      inFlightDue.add(dueAt);
      const body = req.body === undefined ? undefined : Buffer.from(req.body);
      const headers: Record<string, string | number> = { ...req.headers };
      if (body) headers["content-length"] = body.length;
      const release = () => {
        inFlight--;
        inFlightDue.delete(dueAt);
        free.push(vc);
        dispatch();
      };
      const request = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.path, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => {
            if (step?.onResponse) chunks.push(c);
          });
          res.on("end", () => {
            latencies.record(performance.now() - dueAt);
            statuses.add(res.statusCode ?? 0);
            step?.onResponse?.(res.statusCode ?? 0, Buffer.concat(chunks).toString(), vc.ctx);
            release();
          });
          res.on("error", () => {
            errors++;
            release();
          });
        },
      );
      request.setTimeout(options.timeoutS * 1000, () => {
        timeouts++;
        request.destroy(new Error("timeout"));
      });
      request.on("error", () => {
        errors++;
        release();
      });
      request.end(body);
    };

    const dispatch = () => {
      while (dueHead < due.length && free.length > 0) {
        fire(free.pop() as VirtualConnection, due[dueHead++] as number);
      }
      if (performance.now() >= scheduleEnd && inFlight === 0 && dueHead === due.length) finish();
    };

    const tick = () => {
      const now = performance.now();
      const until = Math.min(now, scheduleEnd);
      while (t0 + scheduled * intervalMs <= until) due.push(t0 + scheduled++ * intervalMs);
      dispatch();
      if (now >= drainDeadline) return finish();
      if (!finished) setTimeout(tick, 1);
    };
    tick();
  });
}
