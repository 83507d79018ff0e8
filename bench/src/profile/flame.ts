// A flame graph (icicle: callers above callees) as inline SVG: no script, no font fetched; each frame's width is its
// share of the CPU samples (self + callees), its colour its layer, its tooltip a <title>.
import { esc } from "../report/format.ts";
import { type Layer, layerOf } from "./layers.ts";
import type { Frame, Stacks } from "./stacks.ts";

export interface FlameNode {
  frame: number;
  total: number;
  self: number;
  children: FlameNode[];
}

/** The call tree of the stacks under one synthetic root (frame -1): children ordered by name for stable output. */
export function callTree(stacks: Stacks): FlameNode {
  const root: FlameNode & { index: Map<number, FlameNode> } = {
    frame: -1,
    total: 0,
    self: 0,
    children: [],
    index: new Map(),
  };
  for (const [stack, n] of stacks.samples) {
    let node = root as FlameNode & { index: Map<number, FlameNode> };
    node.total += n;
    for (const id of stack.split(",").map(Number)) {
      let child = node.index.get(id) as (FlameNode & { index: Map<number, FlameNode> }) | undefined;
      if (!child) {
        child = { frame: id, total: 0, self: 0, children: [], index: new Map() };
        node.index.set(id, child);
        node.children.push(child);
      }
      child.total += n;
      node = child;
    }
    node.self += n;
  }
  const order = (node: FlameNode) => {
    node.children.sort((a, b) => {
      const fa = stacks.frames[a.frame] as Frame;
      const fb = stacks.frames[b.frame] as Frame;
      return fa.name < fb.name ? -1 : fa.name > fb.name ? 1 : a.frame - b.frame;
    });
    for (const child of node.children) order(child);
    delete (node as Partial<{ index: unknown }>).index;
  };
  order(root);
  return root;
}

export const LAYER_COLOURS: Record<Layer, string> = {
  framework: "#f4a259",
  validation: "#b388eb",
  serialisation: "#8ecae6",
  Prisma: "#e76f51",
  "pg driver": "#2a9d8f",
  "node:http": "#a7c957",
  "app and core": "#ffd166",
  GC: "#adb5bd",
  other: "#dee2e6",
};

export interface FlameRect {
  frame: number;
  depth: number;
  x: number;
  width: number;
  total: number;
}

/** Every frame's rectangle at `width` pixels for the whole; frames narrower than `minWidth` are left out. */
export function layout(tree: FlameNode, width: number, minWidth = 0.5): FlameRect[] {
  const rects: FlameRect[] = [];
  if (tree.total === 0) return rects;
  const walk = (node: FlameNode, depth: number, x: number) => {
    let at = x;
    for (const child of node.children) {
      const w = (child.total / tree.total) * width;
      if (w >= minWidth) {
        rects.push({ frame: child.frame, depth, x: at, width: w, total: child.total });
        walk(child, depth + 1, at);
      }
      at += w;
    }
  };
  walk(tree, 0, 0);
  return rects;
}

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, "")
    .replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
    .replace(/.*\/(apps|packages|bench)\//, "$1/");

/** The flame graph of `stacks` as an `<svg class="flame">` element. */
export function flameSvg(stacks: Stacks, label: string, width = 1200): string {
  const tree = callTree(stacks);
  const rects = layout(tree, width);
  const row = 16;
  const depth = rects.reduce((d, r) => Math.max(d, r.depth + 1), 0);
  const height = Math.max(1, depth) * row;
  const parts = rects.map((r) => {
    const frame = stacks.frames[r.frame] as Frame;
    const share = ((100 * r.total) / tree.total).toFixed(1);
    const where = frame.url ? ` (${shortUrl(frame.url)}:${frame.line})` : "";
    const title = `${frame.name}${where} — ${r.total} samples, ${share}%`;
    const x = r.x.toFixed(2);
    const w = r.width.toFixed(2);
    const name = esc(frame.name.slice(0, Math.floor(r.width / 7)));
    const text = r.width > 40 ? `<text x="${(r.x + 3).toFixed(2)}" y="${r.depth * row + 12}">${name}</text>` : "";
    const box = `x="${x}" y="${r.depth * row}" width="${w}" height="${row - 1}"`;
    return `<g><title>${esc(title)}</title><rect ${box} fill="${LAYER_COLOURS[layerOf(frame)]}"/>${text}</g>`;
  });
  const attributes = `viewBox="0 0 ${width} ${height}" width="100%" font-size="11" font-family="sans-serif"`;
  return `<svg class="flame" role="img" aria-label="${esc(label)}" ${attributes}>${parts.join("")}</svg>`;
}
