// `pnpm bench --preset <id>`: each published claim (bench/claims/published-claims.json) as the nearest run of ours,
// scaled to this machine. A preset is ordinary options, so that an explicit option beside it wins, and the list of
// what it changed from the article's setup, printed before the run.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "@api-ref/harness";
import type { ScenarioName } from "../scenarios/catalog.ts";

/** One published figure set: figure name → (framework or a sub-key such as a connection count) → value. */
export type FigureValues = { [key: string]: number | FigureValues };

export interface PublishedClaim {
  id: string;
  article: string;
  setup: Record<string, string>;
  figures: Record<string, number | FigureValues>;
  claim: string;
}

export const CLAIMS_FILE = join(REPO_ROOT, "bench", "claims", "published-claims.json");

export function loadClaims(file = CLAIMS_FILE): PublishedClaim[] {
  return (JSON.parse(readFileSync(file, "utf8")) as { claims: PublishedClaim[] }).claims;
}

/** The article's framework names → our implementations (the first is the one its figures are compared with). */
export type FrameworkMap = Record<string, string[]>;

export interface Preset {
  id: string;
  /** Options as on the command line: what is measured (kept with --smoke). */
  what: string[];
  /** Options as on the command line: how long and how hard (dropped with --smoke, which sets its own). */
  shape: string[];
  /** Option fields with no command-line form in this preset's own flags (fixed-rate ramp, resource limits). */
  fields?: { rates?: number[]; cpus?: number; memoryBytes?: number };
  frameworks: FrameworkMap;
  /** The article's route → our scenario, for the report. */
  routes: Record<string, ScenarioName>;
  /** What was changed from the article's setup, and why. */
  changes: string[];
}

const CORES = availableParallelism();
/**
 * Cell length and repeats every preset uses. Each cell runs on a fresh server process settled for --settle (5 s) as
 * its warm-up (--restart cell, the default): the five presets together take about 45 minutes on 2 cores (README).
 */
const SHAPE = ["--duration", "4", "--warmup", "1", "--repeats", "3", "--max-repeats", "3"];
/**
 * Said by every preset that measures routes needing a caller (a scenario with a `caller`): the articles' routes had
 * no authentication, and here the same figures include verifying a token on every such request.
 */
export const AUTH_CHANGE =
  "routes without authentication → every route that needs a caller here gets a bearer token, verified (HS256) and " +
  "its user's role read from the database on each request, as the API requires: part of every figure of user-by-id," +
  " orders-list, order-create and crud-mix (product reads are public, as in the article)";
const LENGTH_CHANGE =
  `30 s × 5 repeats (as the articles ran, where they say) → 4 s × 3 repeats, each cell on a fresh server process ` +
  `settled under load first (5 s), implementations interleaved: the five presets take about 45 minutes on ${CORES} ` +
  `cores, and the 95% intervals show what three repeats can tell`;

/** A fixed-rate ramp "from..to in n steps", expanded as --rate FROM..TOxN is. */
export function ramp(from: number, to: number, steps: number): number[] {
  if (steps < 2) return [from];
  return Array.from({ length: steps }, (_, i) => Math.round(from + ((to - from) * i) / (steps - 1)));
}

export const PRESETS: readonly Preset[] = [
  {
    id: "fastapi-express-nest-health",
    what: [
      "--impl",
      "fastapi,express,nestjs-express,nestjs-fastify",
      "--scenario",
      "health",
      "--workers",
      String(Math.min(4, CORES)),
    ],
    shape: ["--connections", "300", ...SHAPE],
    frameworks: { fastapi: ["fastapi"], express: ["express"], nestjs: ["nestjs-express", "nestjs-fastify"] },
    routes: { "GET /health": "health" },
    changes: [
      `1,000 connections → 300: ${CORES} cores share server and load generator; beyond a few hundred connections the ` +
        `queue, not the framework, sets latency`,
      `4 workers each → ${Math.min(4, CORES)}: one per core of this machine (node:cluster, uvicorn --workers)`,
      "wrk2 at a fixed 50,000 requests/s → as fast as possible: the rate is not reachable on this machine, and max " +
        "throughput is the figure the claim is about (p99 is then the latency at saturation, not at 50k)",
      LENGTH_CHANGE,
    ],
  },
  {
    id: "fastify-express-prisma-crud",
    what: [
      "--impl",
      "express4,fastify-zod",
      "--scenario",
      "user-by-id,product-by-id,products-list,orders-list,order-create,crud-mix",
      // The article's own data: 1,000 users, 5,000 products, 10,000 orders (its setup.data) is scale 1.
      "--scale",
      "1",
    ],
    shape: ["--connections", "100", ...SHAPE],
    // The article measured Express 4: so does this preset (apps/express4, Express 4 under the name express4).
    frameworks: { express: ["express4"], fastify: ["fastify-zod"] },
    routes: {
      "GET /users/:id": "user-by-id",
      "GET /products/:id": "product-by-id",
      "GET /products": "products-list",
      "GET /orders?include=user,product": "orders-list",
      "POST /orders": "order-create",
      "the other CRUD routes (create/update/delete)": "crud-mix",
    },
    changes: [
      "10 routes, each loaded alone → 5 single-route scenarios and crud-mix (a 24-step cycle over every CRUD route); " +
        "the average is the geometric mean over these six",
      AUTH_CHANGE,
      LENGTH_CHANGE,
    ],
  },
  {
    id: "express-fastify-json-echo",
    what: ["--impl", "express,fastify-zod", "--scenario", "echo,hello"],
    shape: ["--connections", "25,200", ...SHAPE],
    frameworks: { express: ["express"], fastify: ["fastify-zod"] },
    routes: { "POST / (JSON clone + txnId)": "echo", "GET / (hello)": "hello" },
    changes: [
      "1,000,000 requests per run → a fixed duration per cell: the same measurement (requests/s), at a length the budget allows",
      "25, 100 and 200 connections → 25 and 200: the article publishes figures at those two",
      "libcurl multithreaded client → the bench's own load generator (one core, pinned apart from the server)",
      LENGTH_CHANGE,
    ],
  },
  {
    id: "express-fastify-template-ramp",
    what: ["--impl", "express,fastify-zod", "--scenario", "health,metrics,auth-register,auth-login"],
    // Each rate step is a cell of its own: two repeats of three steps keep this preset within its share of the budget.
    shape: ["--connections", "25", "--duration", "4", "--warmup", "1", "--repeats", "2", "--max-repeats", "2"],
    // Under 0.5 CPU, /metrics (prom-client's text) saturates at tens of requests/s here and the auth routes (a scrypt
    // hash each) at one or two: rates beyond that measure only a queue, and its backlog is worked off after every cell.
    fields: { rates: ramp(25, 75, 3), cpus: 0.5, memoryBytes: 256 * 1024 * 1024 },
    frameworks: { express: ["express"], fastify: ["fastify-zod"] },
    routes: {
      "GET /health": "health",
      "GET /metrics": "metrics",
      "POST /auth/register": "auth-register",
      "POST /auth/login": "auth-login",
    },
    changes: [
      "k6 ramp 10 → 1,500 requests/s → 3 fixed-rate steps 25, 50, 75 requests/s on 25 connections, each run once (a " +
        "ramp has no repeats, so these ratios have no interval): under 0.5 CPU on this machine /metrics saturates at " +
        "tens of requests/s (prom-client's text), so higher steps would measure only a queue; the auth routes (a " +
        "scrypt hash per request) saturate at one or two and fall behind at every step, their latencies a queue's; " +
        "the latency compared is the geometric mean over the steps",
      "containers of 0.5 CPU and 256 MB → the same limits on each server process (cgroup v2 where the machine allows it)",
      "auth routes run at most 4 connections (a scrypt hash of ~250 ms per request)",
      "the article states no data size: the bench's default data (scale 1: 1,000 users) is what login reads from",
      "30 s per step → 1 s warm-up + 4 s per step (one process per server: a ramp keeps its servers for the run), after" +
        " 5 s of settling under load",
    ],
  },
  {
    id: "four-frameworks-hello",
    what: ["--impl", "fastify-zod,koa,hapi,express", "--scenario", "hello"],
    shape: ["--connections", "100", ...SHAPE],
    frameworks: { fastify: ["fastify-zod"], koa: ["koa"], hapi: ["hapi"], express: ["express"] },
    routes: { "GET / (hello world)": "hello" },
    changes: [
      "2,000,000 requests at 25, 100 and 300 connections → a fixed duration at 100: the article's figures are not split" +
        " by connection count; seconds for 2M requests are derived from requests/s",
      LENGTH_CHANGE,
    ],
  },
];

export const PRESET_IDS = PRESETS.map((p) => p.id);

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}

/** Option names given on the command line (`--duration 3` and `--duration=3` alike). */
export function optionNames(argv: readonly string[]): string[] {
  return argv.filter((a) => a.startsWith("--")).map((a) => a.slice(2).split("=")[0] as string);
}

/**
 * The argv a preset runs with: its options, then the user's (parseArgs keeps the last, so an explicit option wins;
 * with --smoke the preset's cell shape is left out), and which preset options the user's overrode.
 */
export function presetArgv(preset: Preset, userArgv: readonly string[]): { argv: string[]; overridden: string[] } {
  const user = new Set(optionNames(userArgv));
  const smoke = user.has("smoke");
  const own = smoke ? [...preset.what] : [...preset.what, ...preset.shape];
  const overridden = optionNames(own).filter((n) => user.has(n));
  // `--all` cannot be combined with --impl/--scenario: an explicit --all replaces the preset's selection.
  const kept = user.has("all") ? stripOptions(own, ["impl", "scenario"]) : own;
  if (user.has("all")) overridden.push("impl", "scenario");
  return { argv: [...kept, ...userArgv], overridden: [...new Set(overridden)] };
}

function stripOptions(argv: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = (argv[i] as string).slice(2);
    if (names.includes(name)) {
      i++;
      continue;
    }
    out.push(argv[i] as string);
  }
  return out;
}
