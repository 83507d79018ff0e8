// What a scenario is: the requests it sends, what a correct answer to each is, and the rows it draws from.
import type { Rng } from "@api-ref/harness";
import type { z } from "zod";

export type { Rng } from "@api-ref/harness";

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

export interface Expectation {
  status: number;
  /** `json`: parsed and checked against `schema`; `text`: checked by `check`; `empty`: no body (204). */
  body: "json" | "text" | "empty";
  schema?: z.ZodType;
  /** A check beyond the schema, so that a canned answer fails: returns what is wrong, or undefined. */
  check?: (body: unknown, headers: Headers) => string | undefined;
}

export interface BenchRequest {
  method: Method;
  path: string;
  headers?: Record<string, string>;
  /** JSON text. */
  body?: string;
  expect: Expectation;
}

/** What a sequence's steps remember per connection (ids of rows created earlier in the same sequence). */
export type SequenceContext = Record<string, string | undefined>;

export interface Step {
  label: string;
  build(ctx: SequenceContext, rng: Rng): BenchRequest;
  /** Reads what later steps need from the response (e.g. the id of a created row). */
  onResponse?(status: number, body: string, ctx: SequenceContext): void;
}

/**
 * `pool`: independent requests, each connection sends them in its own random order (prebuilt once: no cost per
 * request in the load generator). `sequence`: steps that depend on earlier responses, cycled per connection.
 */
export type Plan = { kind: "pool"; requests: BenchRequest[] } | { kind: "sequence"; steps: Step[] };

/** Rows of the seeded copy that scenarios draw from, sampled afresh every run so nothing can be hard-coded. */
export interface Pools {
  userIds: string[];
  productIds: string[];
  orderIds: string[];
  /** Seeded users that can log in with `password`. */
  logins: Array<{ id: string; email: string }>;
  password: string;
  /** Products that write scenarios order from; the harness restocks them before each measured cell. */
  orderProductIds: string[];
  /**
   * The run's JWT_SECRET (the servers'): scenarios sign their callers' tokens with it as the implementations sign
   * theirs, afresh for every cell (a token lives an hour; a run may last longer).
   */
  jwtSecret: string;
  /** GET /orders as the seeded copy holds it: where cursor walks start, and what their pages and the deep ones hold. */
  orderPages: OrderPages;
}

/**
 * One page of GET /orders (newest first, 20 a page) as the seeded copy holds it. A digest, not the ids: pools go
 * to the load generator with every cell, and a walk's pages at every entry would be 10,000 ids.
 */
export interface PageReference {
  /** The first 16 hex digits of the SHA-1 of the page's order ids, joined by commas. */
  digest: string;
  /** Its first order's id, to say where a wrong page should have started. */
  firstId: string;
  /** Whether a row follows the page (then its nextCursor names the page's last row). */
  more: boolean;
}

/** Where a walk starts (the cursor it sends first; null: the first page) and the pages it must read from there. */
export interface WalkEntry {
  cursor: string | null;
  /** The walk's pages in order, starting over at the first page after the last. */
  pages: PageReference[];
}

export interface OrderPages {
  /** Orders in the seeded copy. */
  total: number;
  walkEntries: WalkEntry[];
  /** The list's last pages, each with its page number: what orders-deep-page asks for. */
  deepPages: Array<PageReference & { page: number }>;
}

export const SCENARIO_NAMES = [
  "hello",
  "health",
  "echo",
  "user-by-id",
  "product-by-id",
  "products-list",
  "orders-list",
  "orders-cursor-walk",
  "orders-deep-page",
  "order-create",
  "auth-login",
  "auth-register",
  "metrics",
  "crud-mix",
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export type ScenarioKind = "framework" | "database";

export interface Scenario {
  name: ScenarioName;
  title: string;
  /** framework: compared to raw node:http; database: compared to raw node:http + pg. */
  kind: ScenarioKind;
  /**
   * Whose bearer token its requests carry, as a real client's would (docs/api.md, "Authorization"): a seeded
   * customer, the seed's admin, or both (crud-mix); none on public routes. Verifying it is part of the figure.
   */
  caller?: "customer" | "admin" | "customer and admin";
  /** Writes rows: the harness restocks `orderProductIds` before each cell, and runs it after the read scenarios. */
  writes?: boolean;
  /** Each request depends on an earlier response, so it cannot be pipelined. */
  sequential?: boolean;
  /**
   * Its cost grows with the data by design (an OFFSET reads every row before its page): a growth run shows what it
   * costs at each scale and holds it to no bar.
   */
  growsWithData?: boolean;
  /**
   * Fewest measured seconds, whatever --duration or the budget say: at ≈ 8 scrypt logins per second (two cores) a shorter
   * run counts too few answers to compare. A --smoke run, which compares nothing, measures a second.
   */
  minDurationS?: number;
  /**
   * Most connections the scenario runs at, whatever --connections says. A scrypt hash is ~250 ms of one core:
   * 16 logins in flight already make a 2 s queue (the latency is then the queue's, not the framework's), and what
   * the queue holds when a cell stops is work the harness must wait out before the next cell.
   */
  maxConnections?: number;
  /** Most requests verified per server, whatever --verify-sample says: each scrypt answer costs ~250 ms to make. */
  maxVerifySample?: number;
  plan(pools: Pools, rng: Rng): Plan;
}
