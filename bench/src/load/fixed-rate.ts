// Fixed-rate (open-loop) load without coordinated omission, as wrk2: request i is due at t0 + i/rate, and its
// latency counts from then, so a stall shows in every request that waited (autocannon's rate limit bursts each
// second and measures from the actual send).
import http from "node:http";
import { performance } from "node:perf_hooks";
import type { BenchRequest, Plan, Rng, SequenceContext, Step } from "../scenarios/catalog.ts";
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
  return new FixedRateRun(options).run();
}

/** One run: the schedule of due times, the free virtual connections, and what was recorded. */
class FixedRateRun {
  private readonly options: FixedRateOptions;
  private readonly target: URL;
  private readonly agent: http.Agent;
  private readonly latencies = new LatencyRecorder();
  private readonly statuses = new StatusCounter();
  private errors = 0;
  private timeouts = 0;
  private readonly intervalMs: number;
  private readonly free: VirtualConnection[];
  /** Every due time scheduled so far; those before dueHead have been sent. */
  private readonly due: number[] = [];
  private dueHead = 0;
  private scheduled = 0;
  private inFlight = 0;
  /** The due times of the requests in flight: recorded as they stand when the run is cut short. */
  private readonly inFlightDue = new Set<number>();
  private finished = false;
  private t0 = 0;
  private scheduleEnd = 0;
  private drainDeadline = 0;
  private resolve: (outcome: LoadOutcome) => void = () => {};

  constructor(options: FixedRateOptions) {
    this.options = options;
    this.target = new URL(options.url);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
    this.intervalMs = 1000 / options.rate;
    this.free = Array.from({ length: options.connections }, () => ({ ctx: {}, step: 0 }));
  }

  run(): Promise<LoadOutcome> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.t0 = performance.now();
      this.scheduleEnd = this.t0 + this.options.durationS * 1000;
      // A grace after the schedule as long as the run (1 s to the request timeout): what is still due or in flight
      // then is abandoned and recorded at the latency it reached, so that an overloaded step costs seconds.
      const graceS = Math.max(1, Math.min(this.options.timeoutS, this.options.durationS));
      this.drainDeadline = this.scheduleEnd + graceS * 1000;
      this.tick();
    });
  }

  /** Schedules the requests now due, sends what free connections allow, and comes back in a millisecond. */
  private tick() {
    const now = performance.now();
    const until = Math.min(now, this.scheduleEnd);
    while (this.t0 + this.scheduled * this.intervalMs <= until)
      this.due.push(this.t0 + this.scheduled++ * this.intervalMs);
    this.dispatch();
    if (now >= this.drainDeadline) return this.finish();
    if (!this.finished) setTimeout(() => this.tick(), 1);
  }

  private dispatch() {
    while (this.dueHead < this.due.length && this.free.length > 0) {
      this.fire(this.free.pop() as VirtualConnection, this.due[this.dueHead++] as number);
    }
    const done = this.inFlight === 0 && this.dueHead === this.due.length;
    if (performance.now() >= this.scheduleEnd && done) this.finish();
  }

  /** The next request of a connection: a pick from the pool, or the next step of its sequence. */
  private next(vc: VirtualConnection): { req: BenchRequest; step?: Step } {
    const { plan, rng } = this.options;
    if (plan.kind === "pool") return { req: rng.pick(plan.requests) };
    // A fresh context as each cycle starts, as autocannon does: the last step is still built with its own cycle's.
    if (vc.step === 0) vc.ctx = {};
    const step = plan.steps[vc.step] as Step;
    vc.step = (vc.step + 1) % plan.steps.length;
    return { req: step.build(vc.ctx, rng), step };
  }

  /** Sends a connection's next request; its latency counts from `dueAt`, when it was due. */
  private fire(vc: VirtualConnection, dueAt: number) {
    const { req, step } = this.next(vc);
    this.inFlight++;
    this.inFlightDue.add(dueAt);
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const headers: Record<string, string | number> = { ...req.headers };
    if (body) headers["content-length"] = body.length;
    const release = () => {
      this.inFlight--;
      this.inFlightDue.delete(dueAt);
      this.free.push(vc);
      this.dispatch();
    };
    const { hostname: host, port } = this.target;
    const request = http.request(
      { host, port, method: req.method, path: req.path, headers, agent: this.agent },
      (res) => this.receive(res, vc, dueAt, step, release),
    );
    request.setTimeout(this.options.timeoutS * 1000, () => {
      this.timeouts++;
      request.destroy(new Error("timeout"));
    });
    request.on("error", () => {
      this.errors++;
      release();
    });
    request.end(body);
  }

  private receive(
    res: http.IncomingMessage,
    vc: VirtualConnection,
    dueAt: number,
    step: Step | undefined,
    release: () => void,
  ) {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => {
      if (step?.onResponse) chunks.push(c);
    });
    res.on("end", () => {
      this.latencies.record(performance.now() - dueAt);
      this.statuses.add(res.statusCode ?? 0);
      step?.onResponse?.(res.statusCode ?? 0, Buffer.concat(chunks).toString(), vc.ctx);
      release();
    });
    res.on("error", () => {
      this.errors++;
      release();
    });
  }

  /** Ends the run: what is still in flight or due is recorded at the latency it reached (a lower bound). */
  private finish() {
    if (this.finished) return;
    this.finished = true;
    const now = performance.now();
    for (const dueAt of this.inFlightDue) this.latencies.record(now - dueAt);
    for (let i = this.dueHead; i < this.due.length; i++) this.latencies.record(now - (this.due[i] as number));
    this.agent.destroy();
    const elapsedS = (performance.now() - this.t0) / 1000;
    const { statuses, scheduled, dueHead } = this;
    this.resolve({
      durationS: elapsedS,
      completed: statuses.total,
      requestsPerSecond: statuses.total / elapsedS,
      statusCounts: statuses.counts,
      non2xx: statuses.non2xx,
      errors: this.errors,
      timeouts: this.timeouts,
      latency: this.latencies.summary(),
      fixedRate: {
        target: this.options.rate,
        scheduled,
        unsent: scheduled - dueHead,
        abandoned: this.inFlightDue.size,
      },
    });
  }
}
