// Starting an implementation for one fault: its own database copied from the seeded template, started exactly
// as in production by the harness's launcher, and cleaned up afterwards.
import { build, type Implementation, launch, type RunningImplementation, sql } from "@api-ref/harness";

export interface SuiteDatabase {
  /** Maintenance database of the suite's own server, with the right to create databases. */
  adminUrl: string;
  /** The seeded template every fault's database is copied from. */
  template: string;
  jwtSecret: string;
}

export interface FaultApp {
  impl: Implementation;
  running: RunningImplementation;
  url: string;
  databaseName: string;
  databaseUrl: string;
  /** True while the process has not exited. */
  alive(): boolean;
  /** Resolves with the exit code once the process has exited (null when killed by a signal). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** SIGTERM (if still running), then drops the database. Safe to call twice. */
  dispose(): Promise<void>;
}

export const databaseNameFor = (fault: string, impl: Implementation) =>
  `faults_${fault}_${impl.name}`.replace(/\W/g, "_").toLowerCase();

export function urlFor(adminUrl: string, database: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function createDatabase(db: SuiteDatabase, name: string): Promise<string> {
  await sql(db.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await sql(db.adminUrl, `CREATE DATABASE "${name}" TEMPLATE "${db.template}"`);
  return urlFor(db.adminUrl, name);
}

export async function dropDatabase(db: SuiteDatabase, name: string) {
  await sql(db.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/**
 * Starts `impl` on a fresh copy of the template for `fault`. `env` is added to its environment; `prepare` runs on
 * the new database before the app starts.
 */
export async function startApp(
  db: SuiteDatabase,
  impl: Implementation,
  fault: string,
  env: Record<string, string> = {},
  prepare?: (databaseUrl: string) => Promise<void>,
): Promise<FaultApp> {
  const databaseName = databaseNameFor(fault, impl);
  const databaseUrl = await createDatabase(db, databaseName);
  let running: RunningImplementation;
  try {
    await prepare?.(databaseUrl);
    // FAULTS_LOG_LEVEL=error shows what an app logged when a fault fails (its output is part of the failure).
    running = await launch(impl, {
      databaseUrl,
      jwtSecret: db.jwtSecret,
      env,
      logLevel: process.env.FAULTS_LOG_LEVEL ?? "silent",
    });
  } catch (error) {
    await dropDatabase(db, databaseName).catch(() => {});
    throw error;
  }
  const child = running.process;
  let exitedAt: { code: number | null; signal: NodeJS.Signals | null; at: number } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      exitedAt = { code: child.exitCode, signal: child.signalCode, at: performance.now() };
      resolve(exitedAt);
      return;
    }
    child.once("exit", (code, signal) => {
      exitedAt = { code, signal, at: performance.now() };
      resolve(exitedAt);
    });
  });
  let disposed: Promise<void> | undefined;
  return {
    impl,
    running,
    url: running.url,
    databaseName,
    databaseUrl,
    exited,
    alive: () => exitedAt === undefined,
    dispose() {
      disposed ??= (async () => {
        if (exitedAt === undefined) await running.stop(15_000);
        await dropDatabase(db, databaseName).catch(() => {});
      })();
      return disposed;
    },
  };
}

/**
 * Builds `impls` that compile (NestJS compiles; FastAPI exports the contract), the production build the bench and
 * the contract suite run too; the launcher runs each distinct build once per process, so variants of one app
 * share theirs. Returns the failures by implementation name.
 */
export async function buildImplementations(
  impls: readonly Implementation[],
  log: (line: string) => void,
): Promise<Record<string, string>> {
  const failures: Record<string, string> = {};
  for (const impl of impls) {
    if (!impl.build) continue;
    const built = await build(impl);
    const step = `${impl.build.command} ${impl.build.args.join(" ")}`;
    log(`faults: ${impl.name}'s build (${step} in ${impl.dir}) took ${Math.round(built.ms)} ms`);
    if (!built.ok) failures[impl.name] = built.error ?? `building ${impl.name} failed`;
  }
  return failures;
}
