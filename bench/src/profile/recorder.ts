// `pnpm bench --profile`: a CPU profile of the server over the measured part of every cell. Node servers run with
// the inspector's sampling profiler loaded (agent.ts) and started/stopped by SIGUSR2; Python servers are sampled
// from outside by py-spy when it is installed in the FastAPI venv. Each cell's profile is kept under
// `<out>/profiles/`; the report draws one flame graph per implementation and scenario from all its cells.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "@api-ref/harness";
import { type LayerShare, summarise, type TopFunction } from "./layers.ts";
import { type CpuProfile, fromCollapsed, fromCpuProfile, mergeStacks, type Stacks } from "./stacks.ts";

export const AGENT = join(REPO_ROOT, "bench", "src", "profile", "agent.ts");
export const PY_SPY = join(REPO_ROOT, "apps", "fastapi", ".venv", "bin", "py-spy");
export const PY_SPY_INSTALL = "apps/fastapi/.venv/bin/pip install py-spy==0.4.3";

export type ProfileKind = { kind: "node"; dir: string } | { kind: "python" };

export interface CellProfile {
  target: string;
  scenario: string;
  connections: number;
  repeat: number;
  /** Relative to the results directory. */
  file: string;
}

export interface ProfileSummary {
  target: string;
  scenario: string;
  /** Samples over all the cells of this target and scenario (idle excluded). */
  samples: number;
  layers: LayerShare[];
  top: TopFunction[];
  files: string[];
  /** Why there is no profile, when there is none. */
  missing?: string;
}

/** Keeps one cell's profile: its stacks for the summary, its raw file under profiles/; returns the file. */
type Save = (stacks: Stacks, raw: string, ext: string) => Promise<string>;

interface Recording {
  /** Stops sampling (phase "done"); resolves once the profile is saved, with its file or why there is none. */
  stop(): Promise<string | undefined>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForFile(path: string, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(50)) if (existsSync(path)) return true;
  return false;
}

export class Profiler {
  private readonly stops = new Map<string, number>();
  private readonly stacks = new Map<string, Stacks[]>();
  private readonly missing = new Map<string, string>();
  readonly cells: CellProfile[] = [];
  private root: string | undefined;
  private readonly outDir: string;

  constructor(outDir: string) {
    this.outDir = outDir;
  }

  /** The kind of profiling a server gets, and for Node the directory its agent writes to. */
  async kindFor(name: string, language: string): Promise<ProfileKind | undefined> {
    if (language === "node") {
      this.root ??= await mkdtemp(join(tmpdir(), "bench-profiles-"));
      const dir = join(this.root, name.replace(/\W/g, "_"));
      await mkdir(dir, { recursive: true });
      return { kind: "node", dir };
    }
    if (language === "python") return { kind: "python" };
    return undefined;
  }

  /** Starts sampling a server for one cell's measured part. */
  start(
    target: { name: string; pid?: number; profile?: ProfileKind },
    cell: { scenario: string; connections: number; repeat: number },
  ): Recording | undefined {
    const key = `${target.name}\0${cell.scenario}`;
    if (!target.profile || !target.pid) {
      this.missing.set(key, "not profiled: the bench did not start this server");
      return undefined;
    }
    const base = `${target.name.replace(/\W/g, "_")}--${cell.scenario}--c${cell.connections}--r${cell.repeat}`;
    const save = async (stacks: Stacks, raw: string, ext: string) => {
      const file = join("profiles", `${base}.${ext}`);
      await mkdir(join(this.outDir, "profiles"), { recursive: true });
      await writeFile(join(this.outDir, file), raw);
      this.stacks.set(key, [...(this.stacks.get(key) ?? []), stacks]);
      this.cells.push({ target: target.name, ...cell, file });
      return file;
    };
    if (target.profile.kind === "node") return this.startNode(target.name, target.pid, target.profile.dir, key, save);
    if (!existsSync(PY_SPY)) {
      this.missing.set(key, `not profiled: py-spy is not installed (${PY_SPY_INSTALL})`);
      return undefined;
    }
    return this.startPySpy(target.pid, base, key, save);
  }

  /** Node: the agent in the server starts and stops its profiler on SIGUSR2, writing `<n>.cpuprofile` in `dir`. */
  private startNode(name: string, pid: number, dir: string, key: string, save: Save): Recording {
    const n = this.stops.get(name) ?? 0;
    this.stops.set(name, n + 1);
    process.kill(pid, "SIGUSR2");
    return {
      stop: async () => {
        process.kill(pid, "SIGUSR2");
        const path = join(dir, `${n}.cpuprofile`);
        if (!(await waitForFile(path, 10_000))) {
          this.missing.set(key, "the server wrote no profile (was it started by this bench with --profile?)");
          return undefined;
        }
        await sleep(50);
        const raw = await readFile(path, "utf8");
        return save(fromCpuProfile(JSON.parse(raw) as CpuProfile), raw, "cpuprofile");
      },
    };
  }

  /** Python: py-spy samples the server's process tree from outside until it is interrupted. */
  private startPySpy(pid: number, base: string, key: string, save: Save): Recording {
    const out = join(tmpdir(), `bench-pyspy-${process.pid}-${base}.txt`);
    // --subprocesses: uvicorn's workers; --idle: so that waiting is seen as idle rather than dropped silently.
    const child: ChildProcess = spawn(
      PY_SPY,
      [
        "record",
        "--pid",
        String(pid),
        "--rate",
        "1000",
        "--format",
        "raw",
        "--subprocesses",
        "--idle",
        "--output",
        out,
        "--nonblocking",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => {
      child.on("exit", (code) => resolve(code));
      child.on("error", () => resolve(-1));
    });
    return {
      stop: async () => {
        child.kill("SIGINT");
        const code = await Promise.race([exited, sleep(15_000).then(() => "timeout" as const)]);
        if (code === "timeout") child.kill("SIGKILL");
        if (!existsSync(out)) {
          this.missing.set(key, `py-spy recorded nothing: ${stderr.trim().split("\n").pop() ?? `exit ${code}`}`);
          return undefined;
        }
        const raw = await readFile(out, "utf8");
        await rm(out, { force: true });
        return save(fromCollapsed(raw), raw, "collapsed.txt");
      },
    };
  }

  /** One summary per target and scenario, over all its cells. */
  summaries(): ProfileSummary[] {
    const keys = new Set([...this.stacks.keys(), ...this.missing.keys()]);
    return [...keys].map((key) => {
      const [target, scenario] = key.split("\0") as [string, string];
      const parts = this.stacks.get(key);
      const files = this.cells.filter((c) => c.target === target && c.scenario === scenario).map((c) => c.file);
      if (!parts?.length) {
        return {
          target,
          scenario,
          samples: 0,
          layers: [],
          top: [],
          files,
          missing: this.missing.get(key) ?? "no profile",
        };
      }
      const { total, layers, top } = summarise(mergeStacks(parts));
      return { target, scenario, samples: total, layers, top, files };
    });
  }

  /** The merged stacks of one target and scenario (for the flame graph). */
  stacksOf(target: string, scenario: string): Stacks | undefined {
    const parts = this.stacks.get(`${target}\0${scenario}`);
    return parts?.length ? mergeStacks(parts) : undefined;
  }

  async cleanup() {
    if (this.root) await rm(this.root, { recursive: true, force: true });
  }
}
