// The servers the bench starts: built, each on its own copy of the seeded template, under its workers, limits group,
// profiler and pinning; with --restart cell started anew before each of its cells (runner/restart.ts).
import { join } from "node:path";
import type { PostgresServer } from "@api-ref/db/provision";
import { build, type Implementation, launch, REPO_ROOT, type RunningImplementation } from "@api-ref/harness";
import type { LimitGroup, ServerLimits } from "../limits.ts";
import type { BenchOptions } from "../options/types.ts";
import { processTree, rssBytes } from "../proc.ts";
import { AGENT, type ProfileKind, type Profiler } from "../profile/recorder.ts";
import type { TargetInfo } from "../results/schema.ts";
import { underCallgrind } from "./callgrind.ts";
import { type Pinning, pinned } from "./pinning.ts";
import type { LiveTarget, Restarter, RunIo } from "./types.ts";

/** A server of the run: one the bench starts, or (with --target) one running elsewhere at `url`. */
export interface Server {
  info: TargetInfo;
  impl: Implementation;
  running?: RunningImplementation;
  url?: string;
  databaseUrl?: string;
  /** --cpus/--memory: the server's control group. */
  group?: LimitGroup;
  /** --profile: how this server is sampled. */
  profile?: ProfileKind;
  /** --restart cell: stopped between its cells (started anew for each). */
  parked?: boolean;
  /** An interleaved growth run: its copy of each scale's data, in the run's scale order (runner/interleave.ts). */
  scaleUrls?: string[];
}

/** What starting servers needs, shared by every server of the run. */
export interface StartContext {
  options: BenchOptions;
  server: PostgresServer;
  templateName: string;
  jwtSecret: string;
  pinning: Pinning;
  limits?: ServerLimits;
  io: RunIo;
  profiler?: Profiler;
  /** --count instructions: every server runs under callgrind, its dumps here. */
  callgrindDir?: string;
}

/** How a server is started for `--workers N`: its own way (uvicorn reads WEB_CONCURRENCY), node:cluster for Node. */
export function withWorkers(impl: Implementation, workers: number): Implementation {
  if (workers <= 1 || impl.language !== "typescript" || impl.start.command !== process.execPath) return impl;
  return { ...impl, start: { ...impl.start, args: [CLUSTER_PRIMARY, ...impl.start.args] } };
}
const CLUSTER_PRIMARY = join(REPO_ROOT, "bench", "src", "cluster.ts");

/** --handicap: V8's interpreter only (--jitless would also stop the WebAssembly of Node's type stripping). */
const HANDICAP = ["--no-opt", "--no-maglev", "--no-sparkplug"];

const CALLGRIND_START_TIMEOUT_MS = 180_000;

/** Node servers get the inspector's sampler, Python ones py-spy. */
const nodeOrPython = (impl: Implementation) => (impl.language === "python" ? "python" : "node");

const handicapped = (server: Server, names: string[]) => names.includes(server.info.twinOf ? "twin" : server.impl.name);

/** The command a server starts with: its workers, inside its limits group, pinned to the server's core. */
function startCommand(server: Server, ctx: StartContext): Implementation {
  let impl = withWorkers(server.impl, ctx.options.workers);
  // --handicap: a server with V8's optimising compilers off (slower per request): the A/A check and --compare must see it.
  if (handicapped(server, ctx.options.handicap)) {
    impl = { ...impl, start: { ...impl.start, args: [...HANDICAP, ...impl.start.args] } };
  }
  // --profile: the sampling profiler's agent is loaded into the Node server itself (started and stopped by SIGUSR2).
  if (server.profile?.kind === "node") {
    impl = { ...impl, start: { ...impl.start, args: ["--import", AGENT, ...impl.start.args] } };
  }
  // --count instructions: valgrind runs the server itself (inside the limits group and the pinning, not around them).
  if (ctx.callgrindDir) impl = underCallgrind(impl, ctx.callgrindDir);
  if (ctx.limits) {
    // Created with the first start; a --restart cell's new process joins the same group.
    server.group ??= ctx.limits.create(server.impl.name);
    impl = ctx.limits.wrap(impl, server.group);
  }
  return pinned(impl, ctx.pinning.server);
}

/** Builds and starts every server in turn (on the run's JWT secret). */
export async function startAll(
  servers: Server[],
  shared: Omit<StartContext, "limits" | "profiler"> & {
    limits: ServerLimits | undefined;
    profiler: Profiler | undefined;
  },
) {
  const { limits, profiler, ...rest } = shared;
  const ctx: StartContext = {
    ...rest,
    ...(limits ? { limits } : {}),
    ...(profiler ? { profiler } : {}),
  };
  for (const server of servers) await startServer(server, ctx);
  return ctx;
}

/** Builds (if needed) and starts one server on its own copy of the template; failures go into its info. */
async function startServer(server: Server, ctx: StartContext) {
  const { info, impl } = server;
  // A growth run starts its servers again at each scale: one that failed at a smaller scale stays failed.
  if (info.error) return;
  if (impl.build) {
    // The launcher builds each app once per process: variants of one app (NestJS on two platforms) share it.
    ctx.io.log(`${impl.name}: build (${impl.build.command} ${impl.build.args.join(" ")})`);
    info.build = await build(impl);
    if (!info.build.ok) {
      info.error = `build failed: ${info.build.error}`;
      ctx.io.log(`${impl.name}: ${info.error}`);
      return;
    }
  }
  try {
    const profile = ctx.profiler && (await ctx.profiler.kindFor(impl.name, nodeOrPython(impl)));
    if (profile) server.profile = profile;
    server.databaseUrl = await ctx.server.createDatabase(databaseName(impl), { template: ctx.templateName });
    await launchServer(server, ctx);
    await recordStart(server, ctx);
  } catch (error) {
    const oom = server.group && server.group.oomKills() > 0 ? " (killed by the OOM killer at its --memory limit)" : "";
    info.error = `did not start${oom}: ${(error as Error).message.split("\n")[0]}`;
    ctx.io.log(`${impl.name}: ${info.error}`);
  }
}

/** The server's own copy of the seeded data. */
const databaseName = (impl: Implementation) => `bench_${impl.name.replace(/\W/g, "_").toLowerCase()}`;

/**
 * A growth run's next scale: every server stopped and its copy of the last scale's data dropped (at a million orders
 * a copy each is disk worth freeing); startAll then starts them again on the next scale's template.
 */
export async function stopAll(servers: Server[], postgres: PostgresServer) {
  for (const server of servers) {
    await server.running?.stop();
    server.running = undefined;
    server.parked = false;
    if (server.databaseUrl) await postgres.dropDatabase(databaseName(server.impl));
    delete server.databaseUrl;
    delete server.url;
  }
}

/**
 * An interleaved growth run: beside the copy of the first scale's data each server started on, a copy of every other
 * scale's template; `useScale` points the servers' next starts at one scale's copies.
 */
export async function copyScales(servers: Server[], postgres: PostgresServer, templates: readonly string[]) {
  for (const server of servers) {
    if (!server.databaseUrl) continue;
    const urls = [server.databaseUrl];
    for (const [index, template] of templates.entries()) {
      if (index === 0) continue;
      urls.push(await postgres.createDatabase(`${databaseName(server.impl)}_${index}`, { template }));
    }
    server.scaleUrls = urls;
  }
}

/** The database every server starts on from now on: its copy of the run's `index`th scale (servers are parked). */
export function useScale(servers: Server[], index: number) {
  for (const server of servers) {
    const url = server.scaleUrls?.[index];
    if (url) server.databaseUrl = url;
  }
}

/** A started server's start-up time, idle memory and processes, in its info and the log. */
async function recordStart(server: Server, ctx: StartContext) {
  const { info, impl } = server;
  const { options } = ctx;
  const running = server.running as RunningImplementation;
  // A growth run's later starts are the same program on more data: its info keeps the first start's figures.
  if (info.startupMs !== undefined) {
    ctx.io.log(`${impl.name}: started again in ${Math.round(running.startupMs)} ms`);
    return;
  }
  info.startupMs = running.startupMs;
  await new Promise((r) => setTimeout(r, options.smoke ? 300 : 1000));
  const tree = processTree(running.pid);
  info.idleRssBytes = rssBytes(tree);
  info.processes = tree.length;
  const workers = options.workers > 1 ? ` (${options.workers} workers)` : "";
  const rss = Math.round((info.idleRssBytes || 0) / 1048576);
  ctx.io.log(`${impl.name}: started in ${Math.round(info.startupMs)} ms, idle RSS ${rss} MB${workers}`);
}

/** Starts the server's process on its database (first start, or a --restart cell's new one). */
async function launchServer(server: Server, ctx: StartContext) {
  const { options } = ctx;
  server.running = await launch(startCommand(server, ctx), {
    databaseUrl: server.databaseUrl as string,
    jwtSecret: ctx.jwtSecret,
    logLevel: "silent",
    // Under callgrind a server starts uninstrumented but several times slower (NestJS: tens of seconds).
    ...(ctx.callgrindDir ? { timeoutMs: CALLGRIND_START_TIMEOUT_MS } : {}),
    env: {
      DB_POOL_SIZE: String(options.poolSize / options.workers),
      WEB_CONCURRENCY: String(options.workers),
      NODE_ENV: "production",
      ...(server.profile?.kind === "node" ? { BENCH_PROFILE_DIR: server.profile.dir } : {}),
    },
  });
  server.url = server.running.url;
}

/**
 * --restart cell: `fresh` stops the server if it runs (gracefully: its pool closes before the next one opens) and
 * starts a new process on the same database, group and pinning; `park` stops it until its next cell.
 */
export function restarter(servers: Server[], ctx: StartContext): Restarter {
  const find = (live: LiveTarget) => {
    const server = servers.find((t) => t.info.name === live.name);
    if (!server?.databaseUrl) throw new Error(`${live.name} is not a server the bench started`);
    return server;
  };
  const stop = async (server: Server) => {
    await server.running?.stop();
    server.running = undefined;
    server.parked = true;
  };
  return {
    async fresh(live) {
      const server = find(live);
      await stop(server);
      await launchServer(server, ctx);
      const running = server.running as RunningImplementation | undefined;
      if (!running) throw new Error(`${live.name} did not start`);
      server.parked = false;
      live.url = running.url;
      live.process = running.process;
      return running.startupMs;
    },
    park: async (live) => stop(find(live)),
  };
}
