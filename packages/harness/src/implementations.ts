// The one list of implementations, read by the contract suite, the bench and the fault suite. Adding an
// implementation means adding one entry here: all three pick it up.
import { fileURLToPath } from "node:url";

export interface Implementation {
  /** Unique id, used by `--impl` (e.g. `fastify-zod`). */
  name: string;
  /** The `framework` string its /health reports. */
  framework: string;
  /** Which mode or platform of the framework, when an app has several. */
  variant: string;
  /** "other": a server outside the repository, measured by the bench with --target (it never starts one). */
  language: "typescript" | "python" | "other";
  /** App directory, relative to the repository root. */
  dir: string;
  /** Command run once before starting, for apps that compile (cwd: dir). */
  build?: { command: string; args: string[] };
  /** How to start it in production (cwd: dir); PORT, HOST, DATABASE_URL, JWT_SECRET, LOG_LEVEL come from the env. */
  start: { command: string; args: string[]; env?: Record<string, string> };
}

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export const implementations: readonly Implementation[] = [
  {
    name: "express",
    framework: "express",
    variant: "default",
    language: "typescript",
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
    dir: "apps/express4",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  {
    name: "express-to-fastify",
    framework: "express-to-fastify",
    variant: "default",
    language: "typescript",
    dir: "apps/express-to-fastify",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  {
    name: "express-to-nestjs",
    framework: "express-to-nestjs",
    variant: "default",
    language: "typescript",
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
    dir: "apps/fastify",
    start: { command: process.execPath, args: ["src/server.ts"], env: { FASTIFY_MODE: "zod" } },
  },
  {
    name: "fastify-json-schema",
    framework: "fastify",
    variant: "json-schema",
    language: "typescript",
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
    dir: "apps/koa",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  {
    name: "hapi",
    framework: "hapi",
    variant: "default",
    language: "typescript",
    dir: "apps/hapi",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  {
    name: "hono",
    framework: "hono",
    variant: "default",
    language: "typescript",
    dir: "apps/hono",
    start: { command: process.execPath, args: ["src/server.ts"] },
  },
  {
    name: "fastapi",
    framework: "fastapi",
    variant: "default",
    language: "python",
    dir: "apps/fastapi",
    // The contract export api_contract reads (packages/python/build/); apps/fastapi/scripts/setup.sh, which creates
    // the venv and installs packages/python into it, runs this export too.
    build: { command: process.execPath, args: ["../../packages/python/scripts/export-contract.ts"] },
    start: { command: `${REPO_ROOT}apps/fastapi/.venv/bin/python`, args: ["-m", "app.server"] },
  },
];

/** Resolves `--impl a,b` against the list; throws a message naming the known ones on a typo. */
export function selectImplementations(names: string | undefined): Implementation[] {
  if (!names) return [...implementations];
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
  return implementations.filter((i) => wanted.includes(i.name));
}
