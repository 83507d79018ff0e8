// What each fault measured, attached to its vitest test (task meta) so that the table reporter and the JSON
// report carry the figures, not just pass/fail.
import type { FaultName } from "../options.ts";

export interface ShutdownFigures {
  fault: "shutdown";
  /** Requests sent before SIGTERM, and how many of them were still unanswered when it was sent. */
  requests: number;
  inFlightAtSignal: number;
  /** Accepted before the signal and not answered correctly (the figure that must be 0). */
  lost: number;
  /** Of the lost POSTs, those whose idempotency key shows the server never started them. */
  unaccepted: number;
  /** Fresh connections tried after the signal: refused (or 503) and accepted. */
  probesRefused: number;
  probesAccepted: number;
  /** From the signal to the last accepted probe (0 when none was accepted). */
  acceptingForMs: number;
  /** From the signal to the first refused probe, and to the release of the held requests. */
  firstRefusalMs: number | null;
  heldAfterSignalMs: number;
  exitCode: number | null;
  exitSignal: string | null;
  /** From the signal to the exit. */
  exitMs: number;
  graceMs: number;
  /** Connections to its database dropped without closing them (pg_stat_database.sessions_abandoned). */
  abandonedSessions: number;
  /** Backends of its database still there 5 s after the exit. */
  backendsLeft: number;
}

export interface OutageFigures {
  fault: "db-outage";
  downMs: number;
  /** Requests needing the database, sent while it was down, and how they were answered. */
  whileDown: number;
  answered503: number;
  wrongAnswers: number;
  /** Slowest and median answer while down (the bound is `answerBoundMs`). */
  maxAnswerMs: number;
  medianAnswerMs: number;
  answerBoundMs: number;
  healthProbes: number;
  healthFailures: number;
  readyProbes: number;
  readyNot503: number;
  /** From the database's return to the end of the first round in which every route worked. */
  recoveryMs: number | null;
  recoveryBoundMs: number;
  /** Failed requests after recovery (must be 0). */
  failuresAfterRecovery: number;
  ordersAcknowledged: number;
  ordersCreated: number;
  /** Orders that exist although their request got no 201 (commit raced the outage; reported, not a failure). */
  ordersUnacknowledged: number;
  /** Products whose stock does not equal initial stock minus their new orders (must be 0). */
  stockMismatches: number;
  processExited: boolean;
}

export interface HostileFigures {
  fault: "hostile-input";
  requests: number;
  /** Of the requests, the fixed authorization attacks every run sends (src/hostile/attacks.ts). */
  attacks: number;
  valid: number;
  mutated: number;
  serverErrors: number;
  /** Answers that were not what the contract says (status, problem type, content type, body schema). */
  mismatches: number;
  byStatus: Record<string, number>;
  invariantViolations: number;
  seed: number;
}

export interface FuzzFigures {
  fault: "schema-fuzz";
  version: string;
  phases: string;
  cases: number;
  failures: number;
  errors: number;
  /** Stateful phase: links the document declares, links Schemathesis inferred, scenarios run. */
  declaredLinks: number;
  inferredLinks: number;
  statefulScenarios: number;
  seconds: number;
}

export interface SoakFigures {
  fault: "soak";
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  unexpected: number;
  serverErrors: number;
  samples: number;
  /** Heap used after a full GC: mean of the first and the last quarter of the samples (Node only). */
  heapFirstMB: number | null;
  heapLastMB: number | null;
  heapGrowthPct: number | null;
  rssFirstMB: number;
  rssLastMB: number;
  rssGrowthPct: number;
  /** How heap-after-GC was read, or why it was not. */
  heapMethod: string;
}

export type Figures = ShutdownFigures | OutageFigures | HostileFigures | FuzzFigures | SoakFigures;

export interface FaultResult {
  impl: string;
  fault: FaultName;
  figures?: Figures;
  /** Why the fault did not run (a skip), or what broke before it could measure anything. */
  note?: string;
}

declare module "vitest" {
  interface TaskMeta {
    faults?: FaultResult;
  }
}
