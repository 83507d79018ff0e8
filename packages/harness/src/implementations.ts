// The one list of implementations, read by the contract suite, the bench and the fault suite. Adding an
// implementation means adding one entry here: all three pick it up.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Deviation, isKnownServer, type KnownServer, SERVER_DEVIATIONS } from "./deviations.ts";
import { type Runtime, runtimeBinary } from "./runtimes.ts";

export type { Runtime } from "./runtimes.ts";

export interface Implementation {
  /** Unique id, used by `--impl` (e.g. `fastify-zod`). */
  name: string;
  /** The `framework` string its /health reports. */
  framework: string;
  /** Which mode or platform of the framework, when an app has several. */
  variant: string;
  /** "other": a server outside the repository, measured by the bench with --target (it never starts one). */
  language: "typescript" | "python" | "other";
  /** What runs it: Node (this process's own binary), Bun or Deno (from node_modules), or the app's Python. */
  runtime: Runtime;
  /** App directory, relative to the repository root. */
  dir: string;
  /** Command run once before starting, for apps that compile (cwd: dir). */
  build?: { command: string; args: string[] };
  /** How to start it in production (cwd: dir); PORT, HOST, DATABASE_URL, JWT_SECRET, LOG_LEVEL come from the env. */
  start: { command: string; args: string[]; env?: Record<string, string> };
  /**
   * Why it cannot run on this machine (its runtime has no binary for this platform, or its Python environment was
   * not set up); such a row is skipped.
   */
  unavailable?: string;
  /**
   * The runtime's own HTTP server, when it answers some contract checks otherwise before any app code runs: its
   * known deviations are `SERVER_DEVIATIONS[server]` (deviations.ts), and a URL run of the row's image names it with
   * `--server`.
   */
  server?: KnownServer;
}

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The start command of a row on Bun or Deno: the binary from node_modules, or why this platform has none. */
function onRuntime(runtime: "bun" | "deno", args: string[]): Pick<Implementation, "runtime" | "start" | "unavailable"> {
  const binary = runtimeBinary(runtime);
  return binary.command
    ? { runtime, start: { command: binary.command, args } }
    : { runtime, start: { command: runtime, args }, unavailable: binary.missing };
}

export const implementations: readonly Implementation[] = [
  {
    name: "express",
    framework: "express",
    variant: "default",
    language: "typescript",
    runtime: "node",
    dir: "apps/express",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  // Express 4 (npm's express@4, installed as `express4`): apps/express with the few changes Express 4 needs
  // (apps/express4/README.md). The same framework, so /health reports "express"; the variant is its major version.
  {
    name: "express4",
    framework: "express",
    variant: "4",
    language: "typescript",
    runtime: "node",
    dir: "apps/express4",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  // The same Express app, unchanged, on Bun's Node compatibility (its node:http server).
  {
    name: "express-bun",
    framework: "express",
    variant: "bun",
    language: "typescript",
    dir: "apps/express",
    ...onRuntime("bun", ["src/server.ts"]),
    server: "bun-node-http",
  },
  {
    name: "express-to-fastify",
    framework: "express-to-fastify",
    variant: "default",
    language: "typescript",
    runtime: "node",
    dir: "apps/express-to-fastify",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  {
    name: "express-to-nestjs",
    framework: "express-to-nestjs",
    variant: "default",
    language: "typescript",
    runtime: "node",
    dir: "apps/express-to-nestjs",
    // Builds apps/nestjs first: the Nest modules it imports run from that app's dist/.
    build: { command: "pnpm", args: ["run", "build"] },
    start: { command: process.execPath, args: ["dist/main.js"] },
  },
  {
    name: "fastify-zod",
    framework: "fastify",
    variant: "zod",
    language: "typescript",
    runtime: "node",
    dir: "apps/fastify",
    start: { command: process.execPath, args: ["src/server.ts"], env: { FASTIFY_MODE: "zod" } },
  },
  {
    name: "fastify-json-schema",
    framework: "fastify",
    variant: "json-schema",
    language: "typescript",
    runtime: "node",
    dir: "apps/fastify",
    start: { command: process.execPath, args: ["src/server.ts"], env: { FASTIFY_MODE: "json-schema" } },
  },
  // One NestJS app, one build, on each of its two HTTP platforms.
  ...(["express", "fastify"] as const).map(
    (platform): Implementation => ({
      name: `nestjs-${platform}`,
      framework: "nestjs",
      variant: platform,
      language: "typescript",
      runtime: "node",
      dir: "apps/nestjs",
      build: { command: "pnpm", args: ["run", "build"] },
      start: { command: process.execPath, args: ["dist/main.js"], env: { NEST_PLATFORM: platform } },
    }),
  ),
  {
    name: "koa",
    framework: "koa",
    variant: "default",
    language: "typescript",
    runtime: "node",
    dir: "apps/koa",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  {
    name: "hapi",
    framework: "hapi",
    variant: "default",
    language: "typescript",
    runtime: "node",
    dir: "apps/hapi",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  {
    name: "hono",
    framework: "hono",
    variant: "default",
    language: "typescript",
    runtime: "node",
    dir: "apps/hono",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  // The same Hono app (buildApp) served by Bun.serve and Deno.serve, each from an entry point of its own.
  {
    name: "hono-bun",
    framework: "hono",
    variant: "bun",
    language: "typescript",
    dir: "apps/hono",
    ...onRuntime("bun", ["src/server.bun.ts"]),
    server: "bun-serve",
  },
  {
    name: "hono-deno",
    framework: "hono",
    variant: "deno",
    language: "typescript",
    dir: "apps/hono",
    ...onRuntime("deno", ["run", "--allow-all", "--no-prompt", "src/server.deno.ts"]),
    server: "deno-serve",
  },
  // Elysia on Bun: its own app (apps/elysia), served by the same Bun.serve setup as hono-bun.
  {
    name: "elysia",
    framework: "elysia",
    variant: "default",
    language: "typescript",
    dir: "apps/elysia",
    ...onRuntime("bun", ["src/server.ts"]),
    server: "bun-serve",
  },
  {
    name: "fastapi",
    framework: "fastapi",
    variant: "default",
    language: "python",
    runtime: "python",
    dir: "apps/fastapi",
    // The contract export api_contract reads (packages/python/build/); apps/fastapi/scripts/setup.sh, which creates
    // the venv and installs packages/python into it, runs this export too.
    build: { command: process.execPath, args: ["../../packages/python/scripts/export-contract.ts"] },
    start: { command: `${REPO_ROOT}apps/fastapi/.venv/bin/python`, args: ["-m", "app.server"] },
    // The venv `pnpm install` makes when it finds a Python 3.11+ (packages/python/scripts/setup-venvs.ts).
    unavailable: existsSync(`${REPO_ROOT}apps/fastapi/.venv/bin/python`)
      ? undefined
      : "apps/fastapi/.venv is missing: install Python 3.11+ and run `pnpm install` again",
  },
];

/**
 * The image a row runs from (`apps/<app>/Dockerfile`, tagged `api-ref/<app>` by compose.yaml and CI), or undefined:
 * its app has no Dockerfile, or the image runs the app on another runtime (the Bun and Deno rows of apps/express
 * and apps/hono; elysia's image is Bun's, as its only row). The row's `start.env` picks its variant in the image.
 */
export function imageOf(impl: Implementation): string | undefined {
  const app = impl.dir.split("/").at(-1);
  if (!existsSync(`${REPO_ROOT}${impl.dir}/Dockerfile`)) return undefined;
  const ownRuntime =
    impl.runtime === "node" ||
    impl.runtime === "python" ||
    implementations.every((i) => i.dir !== impl.dir || i === impl);
  return ownRuntime ? `api-ref/${app}` : undefined;
}

/**
 * The known deviation of row `name` on contract check `check`, if it has one: from its server's list. The target of
 * a URL run is named `url`: its server is the one `pnpm test:contract --url … --server NAME` named (the CLI passes
 * it as CONTRACT_URL_SERVER), none when it named none.
 */
export function deviationOf(name: string, check: string): Deviation | undefined {
  const server =
    name === "url" ? process.env.CONTRACT_URL_SERVER : implementations.find((i) => i.name === name)?.server;
  return server && isKnownServer(server) ? SERVER_DEVIATIONS[server].find((d) => d.check === check) : undefined;
}

/**
 * Resolves `--impl a,b` against the list; throws a message naming the known ones on a typo. Rows that cannot run
 * here (`unavailable`) are left out, each reported to `onSkip` (a command line prints it as one line).
 */
export function selectImplementations(
  names: string | undefined,
  onSkip?: (impl: Implementation, reason: string) => void,
): Implementation[] {
  const runnable = (list: Implementation[]) =>
    list.filter((impl) => {
      if (impl.unavailable) onSkip?.(impl, impl.unavailable);
      return !impl.unavailable;
    });
  if (!names) return runnable([...implementations]);
  const wanted = names
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = wanted.filter((n) => !implementations.some((i) => i.name === n));
  if (unknown.length > 0 || wanted.length === 0) {
    throw new Error(
      `unknown implementation ${unknown.join(", ") || "(none given)"}; known: ${implementations.map((i) => i.name).join(", ")}`,
    );
  }
  return runnable(implementations.filter((i) => wanted.includes(i.name)));
}
