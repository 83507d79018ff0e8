// --cpus / --memory: a control group per server that all its processes share (cgroup v2, else v1's cpu and memory),
// under the bench's own group and removed at the end; where none can be written the run refuses rather than run
// unlimited (bench/docs/method.md, "Resource limits").
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Implementation } from "@api-ref/harness";

export interface ResourceLimits {
  /** CPU quota in cores (0.5 = 50 ms of CPU time per 100 ms period, across all the server's processes). */
  cpus?: number;
  memoryBytes?: number;
  /** The quota's period in µs (default 100 ms, as Docker's): a shorter one throttles in smaller steps. */
  periodUs?: number;
}

const CGROUP_ROOT = "/sys/fs/cgroup";
const PERIOD_US = 100_000;

export class LimitsUnavailable extends Error {}

type Layout = { version: 2; parent: string } | { version: 1; cpu: string; memory: string; cpuacct: string };

/** Where this process's own group is in a hierarchy mounted at `mount` (from /proc/self/cgroup). */
function ownGroup(mount: string, controller: string | undefined): string {
  const lines = readFileSync("/proc/self/cgroup", "utf8").trim().split("\n");
  for (const line of lines) {
    const [, controllers, path] = line.split(":");
    const matches = controller === undefined ? controllers === "" : controllers?.split(",").includes(controller);
    if (matches && path) {
      const dir = join(mount, path);
      if (existsSync(dir)) return dir;
    }
  }
  return mount;
}

function writable(dir: string): boolean {
  const probe = join(dir, `api-ref-bench-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** The cgroup hierarchy this machine lets the bench use, or why none. */
export function detectLayout(): Layout | { error: string } {
  if (existsSync(join(CGROUP_ROOT, "cgroup.controllers"))) {
    const parent = ownGroup(CGROUP_ROOT, undefined);
    const controllers = readFileSync(join(parent, "cgroup.controllers"), "utf8");
    if (!/\bcpu\b/.test(controllers) || !/\bmemory\b/.test(controllers)) {
      return { error: `cgroup v2 at ${parent} does not offer the cpu and memory controllers (${controllers.trim()})` };
    }
    return writable(parent)
      ? { version: 2, parent }
      : { error: `cgroup v2: cannot create groups in ${parent} (run as root, or delegate it)` };
  }
  const cpuMount = join(CGROUP_ROOT, "cpu");
  const memoryMount = join(CGROUP_ROOT, "memory");
  if (!existsSync(join(cpuMount, "cpu.cfs_quota_us")) || !existsSync(join(memoryMount, "memory.limit_in_bytes"))) {
    return { error: "neither cgroup v2 nor cgroup v1's cpu and memory hierarchies are mounted under /sys/fs/cgroup" };
  }
  const cpu = ownGroup(cpuMount, "cpu");
  const memory = ownGroup(memoryMount, "memory");
  if (!writable(cpu) || !writable(memory)) {
    return {
      error: `cgroup v1: cannot create groups in ${cpu} and ${memory} (run as root, with /sys/fs/cgroup writable)`,
    };
  }
  // CPU accounting: in the cpu hierarchy where cpu and cpuacct are mounted together, else in cpuacct's own.
  const acctMount = join(CGROUP_ROOT, "cpuacct");
  const cpuacct = existsSync(join(cpu, "cpuacct.usage"))
    ? cpu
    : existsSync(join(acctMount, "cpuacct.usage"))
      ? ownGroup(acctMount, "cpuacct")
      : "";
  if (cpuacct && cpuacct !== cpu && !writable(cpuacct)) {
    return { error: `cgroup v1: cannot create groups in ${cpuacct} (run as root, with /sys/fs/cgroup writable)` };
  }
  return { version: 1, cpu, memory, cpuacct };
}

export interface LimitGroup {
  name: string;
  /** The group directories (one for v2; cpu, memory and cpuacct for v1). */
  dirs: string[];
  /** OOM kills in the group so far. */
  oomKills(): number;
  /** CPU seconds used by every process in the group since it was made (the kernel's accounting); NaN if none. */
  cpuSeconds(): number;
  /** The CPU quota in cores, or undefined without one. */
  quotaCores: number | undefined;
  /** Moves a process started elsewhere (a PostgreSQL backend) into the group's CPU quota and accounting. */
  adopt(pid: number): boolean;
  /** Moves every adopted process that is still in the group back where the bench's own processes are. */
  releaseAdopted(): void;
}

const readCounter = (file: string, key: string): number => {
  try {
    const line = readFileSync(file, "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${key} `));
    return line ? Number(line.split(" ")[1]) : 0;
  } catch {
    return 0;
  }
};

/** The groups of one run: created per server, with the limits set, and every one removed by removeAll(). */
export class ServerLimits {
  readonly layout: Layout;
  readonly limits: ResourceLimits;
  private readonly groups: LimitGroup[] = [];
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.removeAll();
    // Others may still be cleaning up (the embedded PostgreSQL stops, then raises the signal again itself).
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };

  /** Throws LimitsUnavailable (with the reason) where this machine cannot apply the limits. */
  constructor(limits: ResourceLimits) {
    const layout = detectLayout();
    if ("error" in layout) throw new LimitsUnavailable(`--cpus/--memory cannot be applied: ${layout.error}`);
    this.layout = layout;
    this.limits = limits;
    removeOrphanGroups(layout.version === 2 ? [layout.parent] : [layout.cpu, layout.memory, layout.cpuacct]);
    process.once("SIGINT", this.onSignal);
    process.once("SIGTERM", this.onSignal);
  }

  get periodUs(): number {
    return this.limits.periodUs ?? PERIOD_US;
  }

  get description(): string {
    return this.layout.version === 2
      ? `cgroup v2 under ${this.layout.parent}`
      : `cgroup v1 under ${this.layout.cpu} and ${this.layout.memory}`;
  }

  /** A new group for one server, its limits set. */
  create(server: string): LimitGroup {
    const name = `api-ref-bench-${process.pid}-${server.replace(/[^\w-]/g, "_")}`;
    const quota = this.limits.cpus === undefined ? undefined : Math.round(this.limits.cpus * this.periodUs);
    const memory = this.limits.memoryBytes;
    const group =
      this.layout.version === 2
        ? this.createV2(this.layout.parent, name, quota, memory)
        : this.createV1(this.layout, name, quota, memory);
    this.groups.push(group);
    return group;
  }

  private createV2(parent: string, name: string, quota: number | undefined, memory: number | undefined): LimitGroup {
    // A group's controllers must be enabled in its parent; best effort (already enabled is fine).
    try {
      writeFileSync(join(parent, "cgroup.subtree_control"), "+cpu +memory");
    } catch {}
    const dir = join(parent, name);
    mkdirSync(dir);
    if (quota !== undefined) writeFileSync(join(dir, "cpu.max"), `${quota} ${this.periodUs}`);
    if (memory !== undefined) {
      writeFileSync(join(dir, "memory.max"), String(memory));
      if (existsSync(join(dir, "memory.swap.max"))) writeFileSync(join(dir, "memory.swap.max"), "0");
    }
    return {
      name,
      dirs: [dir],
      oomKills: () => readCounter(join(dir, "memory.events"), "oom_kill"),
      // cpu.stat's usage_usec is kept whether or not the cpu controller is enabled.
      cpuSeconds: () => readCounter(join(dir, "cpu.stat"), "usage_usec") / 1e6,
      ...this.adoption([dir], [parent], quota),
    };
  }

  /** adopt/releaseAdopted over the groups a moved process joins (its CPU quota and accounting). */
  private adoption(dirs: string[], parents: string[], quota: number | undefined) {
    const adopted = new Set<number>();
    return {
      quotaCores: quota === undefined ? undefined : quota / this.periodUs,
      adopt: (pid: number) => {
        try {
          for (const dir of dirs) writeFileSync(join(dir, "cgroup.procs"), String(pid));
          adopted.add(pid);
          return true;
        } catch {
          return false;
        }
      },
      releaseAdopted: () => {
        for (const pid of adopted) {
          for (const parent of parents) {
            try {
              writeFileSync(join(parent, "cgroup.procs"), String(pid));
            } catch {}
          }
        }
        adopted.clear();
      },
    };
  }

  private createV1(
    layout: { cpu: string; memory: string; cpuacct: string },
    name: string,
    quota: number | undefined,
    memory: number | undefined,
  ): LimitGroup {
    const cpu = join(layout.cpu, name);
    const mem = join(layout.memory, name);
    const acct = layout.cpuacct && layout.cpuacct !== layout.cpu ? join(layout.cpuacct, name) : undefined;
    mkdirSync(cpu);
    mkdirSync(mem);
    if (acct) mkdirSync(acct);
    if (quota !== undefined) {
      writeFileSync(join(cpu, "cpu.cfs_period_us"), String(this.periodUs));
      writeFileSync(join(cpu, "cpu.cfs_quota_us"), String(quota));
    }
    if (memory !== undefined) {
      writeFileSync(join(mem, "memory.limit_in_bytes"), String(memory));
      // No swap beyond the limit where the kernel accounts swap (memsw must not be below limit_in_bytes).
      try {
        writeFileSync(join(mem, "memory.memsw.limit_in_bytes"), String(memory));
      } catch {}
    }
    const usage = layout.cpuacct ? join(acct ?? cpu, "cpuacct.usage") : undefined;
    const cpuDirs = acct ? [cpu, acct] : [cpu];
    return {
      name,
      dirs: [cpu, mem, ...(acct ? [acct] : [])],
      oomKills: () => readCounter(join(mem, "memory.oom_control"), "oom_kill"),
      cpuSeconds: () => (usage ? Number(readFileSync(usage, "utf8")) / 1e9 : Number.NaN),
      ...this.adoption(cpuDirs, acct ? [layout.cpu, layout.cpuacct] : [layout.cpu], quota),
    };
  }

  /**
   * The server started inside the group: a shell writes its own pid into each group's cgroup.procs and then
   * execs the server (same pid), so that every process it starts is in the group from its first instruction.
   */
  wrap(impl: Implementation, group: LimitGroup): Implementation {
    const joins = group.dirs.map((d) => `echo $$ > '${join(d, "cgroup.procs")}'`).join(" && ");
    return {
      ...impl,
      start: {
        ...impl.start,
        command: "sh",
        args: ["-c", `${joins} && exec "$@"`, "sh", impl.start.command, ...impl.start.args],
      },
    };
  }

  /** Kills what is left in every group and removes the groups; safe to call more than once. */
  removeAll() {
    process.off("SIGINT", this.onSignal);
    process.off("SIGTERM", this.onSignal);
    for (const group of this.groups.splice(0)) {
      // Adopted processes (PostgreSQL's backends) are not the server's: they go back, and are not killed.
      group.releaseAdopted();
      for (const dir of group.dirs) removeGroup(dir);
    }
  }
}

/** Processes in a group (from its cgroup.procs); empty when the group is gone. */
export function groupProcesses(dir: string): number[] {
  try {
    return readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Groups of bench runs whose process is gone (killed with SIGKILL, which no handler sees): their leftover servers
 * are stopped and the groups removed, so that they neither hold CPU nor pile up in the hierarchy.
 */
export function removeOrphanGroups(parents: string[]): string[] {
  const removed: string[] = [];
  for (const parent of new Set(parents.filter(Boolean))) {
    for (const entry of readdirSync(parent, { withFileTypes: true })) {
      const pid = /^api-ref-bench-(\d+)-/.exec(entry.name)?.[1];
      if (!entry.isDirectory() || !pid || isAlive(Number(pid))) continue;
      removeGroup(join(parent, entry.name));
      removed.push(join(parent, entry.name));
    }
  }
  if (removed.length > 0)
    console.error(`removed ${removed.length} control group(s) left by bench runs that were killed`);
  return removed;
}

function removeGroup(dir: string) {
  if (!existsSync(dir)) return;
  for (const pid of groupProcesses(dir)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  // A group can be removed once its last process has been reaped: wait for that a little (synchronously, as
  // this also runs from a signal handler).
  const until = Date.now() + 3000;
  for (;;) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      if (Date.now() > until) throw new Error(`could not remove cgroup ${dir}: ${(error as Error).message}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}

/** Bytes as the report writes a limit: 256 MiB, 1.5 GiB. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(2)} GiB` : `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
}
