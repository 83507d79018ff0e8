// Starts an implementation exactly as in production: its own process, configured only by the environment.
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import { join } from "node:path";
import { type Implementation, REPO_ROOT } from "./implementations.ts";
import { runCommand } from "./run-command.ts";

export interface RunningImplementation {
  impl: Implementation;
  url: string;
  pid: number;
  /** Spawn to first successful /health, in milliseconds. */
  startupMs: number;
  /** What the process wrote to stdout and stderr (the end of it: LaunchOptions.outputChars). */
  output(): string;
  /** SIGTERM, then wait for exit (SIGKILL after the grace period). Resolves to the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  process: ChildProcess;
}

export interface LaunchOptions {
  databaseUrl: string;
  jwtSecret: string;
  logLevel?: string;
  env?: Record<string, string>;
  /** How long to wait for /health (default 60 s). */
  timeoutMs?: number;
  /**
   * How much of what the process writes (stdout and stderr) `output()` keeps: the last 20,000 characters by
   * default, for diagnostics; `Infinity` keeps all of it, for checks that read the logs.
   */
  outputChars?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export interface BuildResult {
  /** How long the build took (0 for an implementation without one; variants sharing one build share its figure). */
  ms: number;
  ok: boolean;
  /** Why it failed, with the end of the build's own output. */
  error?: string;
}

/**
 * Runs an implementation's build step, if it has one (apps that compile, e.g. NestJS; FastAPI exports the
 * contract), always as production builds it: NODE_ENV=production, for the contract suite, the bench, the fault
 * suite and `pnpm dev`/`pnpm start` alike. Never throws: a failure is `ok: false` with the build's output. Each distinct
 * build (directory, command, arguments) runs once per process, so variants of one app share it.
 */
export function build(impl: Implementation): Promise<BuildResult> {
  const step = impl.build;
  if (!step) return Promise.resolve({ ms: 0, ok: true });
  const key = JSON.stringify([impl.dir, step.command, step.args]);
  let result = builds.get(key);
  if (!result) {
    // One build at a time: one app's build may compile another's (express-to-nestjs builds apps/nestjs first), and
    // two compilers writing one dist/ at once can leave it half-written for the app that starts from it.
    result = building.then(() => buildNow(impl, step));
    building = result;
    builds.set(key, result);
  }
  return result;
}
const builds = new Map<string, Promise<BuildResult>>();
let building: Promise<unknown> = Promise.resolve();

async function buildNow(impl: Implementation, step: NonNullable<Implementation["build"]>): Promise<BuildResult> {
  const started = performance.now();
  const { code, output, error } = await runCommand(step.command, step.args, {
    cwd: join(REPO_ROOT, impl.dir),
    env: { ...process.env, NODE_ENV: "production" },
    keepChars: 5000,
  });
  const ms = performance.now() - started;
  if (code === 0) return { ms, ok: true };
  const why = error ? `could not run: ${error.message}` : `failed with exit code ${code}`;
  return {
    ms,
    ok: false,
    error: `building ${impl.name} (${step.command} ${step.args.join(" ")}) ${why}${output.trim() ? `:\n${output.trim()}` : ""}`,
  };
}

/**
 * Polls `GET <url>/health` every `intervalMs` until it answers 200 ("healthy"), the process is gone ("exited") or
 * `timeoutMs` have passed ("timeout").
 */
export async function waitUntilHealthy(
  url: string,
  options: { timeoutMs: number; intervalMs: number; exited: () => boolean },
): Promise<"healthy" | "exited" | "timeout"> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (options.exited()) return "exited";
    if (Date.now() > deadline) return "timeout";
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return "healthy";
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, options.intervalMs));
  }
}

/** The auth routes' rate limit every launched implementation gets unless told otherwise. */
export const UNREACHED_AUTH_RATE_LIMIT = 1_000_000_000;

export async function launch(impl: Implementation, options: LaunchOptions): Promise<RunningImplementation> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(impl.start.command, impl.start.args, {
    cwd: join(REPO_ROOT, impl.dir),
    env: {
      ...process.env,
      NODE_ENV: "production",
      // The suites and the bench send many logins and registrations from one address: a limit they never reach
      // (the contract's rate-limit file starts its instances with a small one through options.env).
      AUTH_RATE_LIMIT: String(UNREACHED_AUTH_RATE_LIMIT),
      ...impl.start.env,
      ...options.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: options.databaseUrl,
      JWT_SECRET: options.jwtSecret,
      LOG_LEVEL: options.logLevel ?? "silent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const outputChars = options.outputChars ?? 20_000;
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > outputChars) output = output.slice(-outputChars);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });

  const timeoutMs = options.timeoutMs ?? 60_000;
  const health = await waitUntilHealthy(url, { timeoutMs, intervalMs: 25, exited: () => exitCode !== undefined });
  if (health === "exited") throw new Error(`${impl.name} exited with ${exitCode} before it was healthy:\n${output}`);
  if (health === "timeout") {
    child.kill("SIGKILL");
    throw new Error(`${impl.name} was not healthy within ${timeoutMs} ms:\n${output}`);
  }
  const startupMs = performance.now() - started;

  return {
    impl,
    url,
    pid: child.pid ?? -1,
    startupMs,
    process: child,
    output: () => output,
    async stop(graceMs = 10_000) {
      if (exitCode !== undefined) return exitCode;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
