// Profiles as weighted call stacks, whatever recorded them: a Node `.cpuprofile` (the inspector's sampling
// profiler) or py-spy's raw output (collapsed stacks). Flame graphs and the layer table are drawn from these.

export interface Frame {
  name: string;
  /** Where the function lives: a file path or URL (`node:internal/…`, `file:///…/node_modules/pg/…`), or "". */
  url: string;
  line: number;
}

/** Samples per distinct call stack (root first). */
export interface Stacks {
  frames: Frame[];
  /** Stack (indices into `frames`, root first) → samples whose leaf is its last frame. */
  samples: Map<string, number>;
  /** Samples spent idle (waiting for I/O), kept apart: they are not CPU. */
  idle: number;
}

class FrameTable {
  readonly frames: Frame[] = [];
  private readonly index = new Map<string, number>();
  id(frame: Frame): number {
    const key = `${frame.name}\0${frame.url}\0${frame.line}`;
    let id = this.index.get(key);
    if (id === undefined) {
      id = this.frames.length;
      this.frames.push(frame);
      this.index.set(key, id);
    }
    return id;
  }
}

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples?: number[];
}

/** Merges profiles into one set of stacks (e.g. the repeats of one cell). */
export function mergeStacks(parts: Stacks[]): Stacks {
  const table = new FrameTable();
  const samples = new Map<string, number>();
  let idle = 0;
  for (const part of parts) {
    idle += part.idle;
    for (const [stack, n] of part.samples) {
      const key = stack
        .split(",")
        .map((i) => table.id(part.frames[Number(i)] as Frame))
        .join(",");
      samples.set(key, (samples.get(key) ?? 0) + n);
    }
  }
  return { frames: table.frames, samples, idle };
}

/** A `.cpuprofile` as stacks. `(root)` is dropped, `(idle)` counted apart; `(program)` and `(garbage collector)` stay. */
export function fromCpuProfile(profile: CpuProfile): Stacks {
  const table = new FrameTable();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // hitCount is filled by Profiler.stop; `samples` is the same information per sample.
  const hits = new Map<number, number>();
  if (profile.samples?.length) for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  else for (const node of profile.nodes) if (node.hitCount) hits.set(node.id, node.hitCount);
  const samples = new Map<string, number>();
  let idle = 0;
  for (const [id, n] of hits) {
    const node = byId.get(id);
    if (!node) continue;
    if (node.callFrame.functionName === "(idle)") {
      idle += n;
      continue;
    }
    const path: number[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { callFrame } = byId.get(at) as CpuProfileNode;
      if (callFrame.functionName === "(root)" && parent.get(at) === undefined) break;
      path.push(
        table.id({
          name: callFrame.functionName || "(anonymous)",
          url: callFrame.url,
          line: callFrame.lineNumber + 1,
        }),
      );
    }
    const key = path.reverse().join(",");
    samples.set(key, (samples.get(key) ?? 0) + n);
  }
  return { frames: table.frames, samples, idle };
}

/** py-spy's `--format raw` output: one `frame;frame;… count` line per stack, frames as `name (file:line)`. */
export function fromCollapsed(text: string): Stacks {
  const table = new FrameTable();
  const samples = new Map<string, number>();
  let idle = 0;
  for (const line of text.split("\n")) {
    const at = line.lastIndexOf(" ");
    if (at <= 0) continue;
    const n = Number(line.slice(at + 1));
    if (!Number.isFinite(n) || n <= 0) continue;
    const frames = line
      .slice(0, at)
      .split(";")
      .filter((f) => f && !/^process \d+/.test(f) && !/^thread \(/.test(f));
    if (frames.length === 0) continue;
    if (frames.some((f) => /\(idle\)/.test(f))) {
      idle += n;
      continue;
    }
    const key = frames
      .map((f) => {
        const m = /^(.*) \((.*):(\d+)\)$/.exec(f);
        return table.id(
          m ? { name: m[1] as string, url: m[2] as string, line: Number(m[3]) } : { name: f, url: "", line: 0 },
        );
      })
      .join(",");
    samples.set(key, (samples.get(key) ?? 0) + n);
  }
  return { frames: table.frames, samples, idle };
}
