// What the harness reads from /proc (Linux): a server's CPU time and memory, its whole process tree included
// (an implementation may run workers), and what this machine is. Elsewhere these read as unavailable (NaN).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";

let clockTicks: number | undefined;
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

interface Stat {
  ppid: number;
  /** user + system CPU, in clock ticks */
  ticks: number;
}

function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may contain spaces and parentheses: fields are counted after its last ')'.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** The process and all its descendants (for servers that fork workers). */
export function processTree(rootPid: number): number[] {
  let pids: number[];
  try {
    pids = readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [rootPid];
  }
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const stat = readStat(pid);
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push(pid);
    children.set(stat.ppid, list);
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i] as number) ?? []));
  return tree;
}

/** CPU seconds (user + system) used so far by the given processes. */
export function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  let seen = false;
  for (const pid of pids) {
    const stat = readStat(pid);
    if (stat) {
      ticks += stat.ticks;
      seen = true;
    }
  }
  return seen ? ticks / ticksPerSecond() : Number.NaN;
}

function statusField(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

const sumFinite = (values: number[]) => {
  const finite = values.filter(Number.isFinite);
  return finite.length ? finite.reduce((a, b) => a + b, 0) : Number.NaN;
};

/** Resident memory now, in bytes, summed over the processes. */
export const rssBytes = (pids: readonly number[]) => sumFinite(pids.map((pid) => statusField(pid, "VmRSS")));

/** Peak resident memory since start (or since resetPeakRss), in bytes, summed over the processes. */
export const peakRssBytes = (pids: readonly number[]) => sumFinite(pids.map((pid) => statusField(pid, "VmHWM")));

/** Resets the kernel's peak-RSS mark (clear_refs 5, Linux 4.0+); false where that is not allowed. */
export function resetPeakRss(pids: readonly number[]): boolean {
  let ok = pids.length > 0;
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, "5");
    } catch {
      ok = false;
    }
  }
  return ok;
}

/** CPU ticks per process of a tree, at one moment. */
function treeTicks(rootPid: number): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of processTree(rootPid)) {
    const stat = readStat(pid);
    if (stat) ticks.set(pid, stat.ticks);
  }
  return ticks;
}

/**
 * Samples a process tree while a cell runs: CPU seconds between start() and stop() (per process, so that a
 * process that ends or starts in between — a database backend, a worker — cannot make the sum go backwards),
 * and the peak RSS (the larger of the sampled maximum and the kernel's high-water mark, reset at start).
 */
export class ServerSampler {
  private readonly rootPid: number;
  private pids: number[] = [];
  private ticksStart = new Map<number, number>();
  private wallStart = 0;
  private peak = Number.NaN;
  private hwmReset = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(rootPid: number) {
    this.rootPid = rootPid;
  }

  start() {
    this.pids = processTree(this.rootPid);
    this.hwmReset = resetPeakRss(this.pids);
    this.ticksStart = treeTicks(this.rootPid);
    this.wallStart = performance.now();
    this.peak = rssBytes(this.pids);
    this.timer = setInterval(() => {
      const now = rssBytes(this.pids);
      if (!(now <= this.peak)) this.peak = now;
    }, 200);
  }

  stop(): { cpuCores: number; cpuSeconds: number; peakRssBytes: number } {
    clearInterval(this.timer);
    const ticksEnd = treeTicks(this.rootPid);
    let ticks = 0;
    for (const [pid, end] of ticksEnd) ticks += end - (this.ticksStart.get(pid) ?? 0);
    const cpu = ticksEnd.size > 0 ? ticks / ticksPerSecond() : Number.NaN;
    const wall = (performance.now() - this.wallStart) / 1000;
    const sampledPeak = Math.max(this.peak, rssBytes(this.pids));
    const peak = this.hwmReset ? Math.max(sampledPeak, peakRssBytes(this.pids)) : sampledPeak;
    return { cpuCores: cpu / wall, cpuSeconds: cpu, peakRssBytes: peak };
  }
}

// ---- pinning ----------------------------------------------------------------------------------------------------

/** The CPUs this process may run on, from taskset (or every CPU the OS reports when taskset is missing). */
export function allowedCpus(): { cpus: number[]; taskset: boolean } {
  try {
    const out = execFileSync("taskset", ["-c", "-p", String(process.pid)], { encoding: "utf8" });
    const list = out.split(":").pop()?.trim() ?? "";
    const cpus: number[] = [];
    for (const part of list.split(",")) {
      const [from, to] = part.split("-").map(Number);
      if (from === undefined || !Number.isInteger(from)) continue;
      for (let c = from; c <= (to ?? from); c++) cpus.push(c);
    }
    if (cpus.length > 0) return { cpus, taskset: true };
  } catch {
    // no taskset (macOS, minimal containers): run unpinned
  }
  return { cpus: os.cpus().map((_, i) => i), taskset: false };
}

/** Moves a running process (all its threads) to the given CPUs; false when that did not work. */
export function pinProcess(pid: number, cpus: string): boolean {
  try {
    execFileSync("taskset", ["-a", "-c", "-p", cpus, String(pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

// ---- the machine ----------------------------------------------------------------------------------------------

export interface MachineInfo {
  hostname: string;
  platform: string;
  kernel: string;
  arch: string;
  cpuModel: string;
  logicalCpus: number;
  memoryBytes: number;
  node: string;
  v8: string;
  /** 1-minute load average when the run started: other work on the machine skews every figure. */
  loadAverage1m: number;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  let cpuModel = cpus[0]?.model ?? "unknown";
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    if (match?.[1]) cpuModel = match[1].trim();
  } catch {
    // not Linux
  }
  return {
    hostname: os.hostname(),
    platform: os.platform(),
    kernel: os.release(),
    arch: os.arch(),
    cpuModel,
    logicalCpus: os.cpus().length,
    memoryBytes: os.totalmem(),
    node: process.version,
    v8: process.versions.v8,
    loadAverage1m: os.loadavg()[0] ?? Number.NaN,
  };
}

/**
 * CPU seconds the whole machine has spent busy (every CPU's user, nice, system, irq, softirq and steal time, from
 * /proc/stat) since boot; NaN where /proc/stat cannot be read. The difference over a measured run, minus the
 * run's own processes, is the CPU other work took.
 */
export function machineBusySeconds(): number {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    const busy = [user, nice, system, irq, softirq, steal].reduce<number>((a, b) => a + (b ?? 0), 0);
    return line.startsWith("cpu ") ? busy / ticksPerSecond() : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
