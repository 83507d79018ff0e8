// Which layer of a server a function belongs to, from where it lives: the question a profile answers is "where
// does the time go between the framework, validation, serialisation, the data access and node:http".
import type { Frame, Stacks } from "./stacks.ts";

export const LAYERS = [
  "framework",
  "validation",
  "serialisation",
  "Prisma",
  "pg driver",
  "node:http",
  "app and core",
  "GC",
  "other",
] as const;
export type Layer = (typeof LAYERS)[number];

const PACKAGES: Array<[RegExp, Layer]> = [
  [/^(express|router|body-parser|raw-body|finalhandler|send|serve-static|path-to-regexp|on-finished)$/, "framework"],
  [/^(fastify|find-my-way|avvio|light-my-request|@fastify\/.*|fastify-plugin|pino|pino-std-serializers)$/, "framework"],
  [/^(@nestjs\/.*|rxjs|reflect-metadata)$/, "framework"],
  [/^(koa|@koa\/.*|koa-compose|co-body)$/, "framework"],
  [/^(@hapi\/.*)$/, "framework"],
  [/^(hono|@hono\/.*)$/, "framework"],
  [/^(zod|ajv|ajv-formats|@hono\/zod-validator|fastify-type-provider-zod)$/, "validation"],
  [/^(fast-json-stringify|safe-stable-stringify|secure-json-parse)$/, "serialisation"],
  [/^(@prisma\/.*|prisma|\.prisma)$/, "Prisma"],
  [
    /^(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-array|postgres-date|postgres-interval)$/,
    "pg driver",
  ],
  [/^(starlette|fastapi|uvicorn|anyio|h11|httptools|uvloop)$/, "framework"],
  [/^(pydantic|pydantic_core)$/, "validation"],
  [/^(orjson|json)$/, "serialisation"],
  [/^(asyncpg|psycopg|psycopg_pool)$/, "pg driver"],
  [/^(app|api_contract|api_core)$/, "app and core"],
];

/** The package a file belongs to: the last `node_modules/<pkg>` (scoped or not) or `site-packages/<pkg>` in its path. */
export function packageOf(url: string): string | undefined {
  const node = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (node) return node[1];
  const python = /.*(?:site|dist)-packages\/([^/]+)\//.exec(url);
  if (python) return python[1];
  // py-spy names files relative to their sys.path entry: `fastapi/routing.py`, `app/middleware.py`.
  const relative = /^([A-Za-z_]\w*)\/[^:]+\.py$/.exec(url);
  if (relative) return relative[1];
  const stdlib = /\/lib\/python3[.\d]*\/(json|asyncio)\//.exec(url);
  return stdlib ? stdlib[1] : undefined;
}

export function layerOf(frame: Pick<Frame, "name" | "url">): Layer {
  const { name, url } = frame;
  if (name === "(garbage collector)") return "GC";
  if (url === "" && /^(stringify|parse|JSON\.)/.test(name)) return "serialisation";
  const pkg = packageOf(url);
  if (pkg) {
    for (const [pattern, layer] of PACKAGES) if (pattern.test(pkg)) return layer;
    return "other";
  }
  if (/^node:(_http_|http$|https$|net$|stream$|internal\/(http|streams|stream_base|net|js_stream|timers))/.test(url)) {
    return "node:http";
  }
  if (/\/(apps|packages)\/[^/]+\/(src|app|api_contract|api_core)\//.test(url) || /\/bench\/baselines\//.test(url))
    return "app and core";
  return "other";
}

export interface LayerShare {
  layer: Layer;
  samples: number;
  share: number;
}

export interface TopFunction {
  name: string;
  url: string;
  line: number;
  layer: Layer;
  selfSamples: number;
  selfShare: number;
}

/**
 * The layer a sample's time belongs to: its leaf's, except that a native function (no file: `writev`, a
 * crypto binding) counts for the nearest caller that has one (socket writes for node:http, and so on).
 */
export function layerOfStack(frames: Frame[], stack: number[]): Layer {
  for (let i = stack.length - 1; i >= 0; i--) {
    const frame = frames[stack[i] as number] as Frame;
    const native = frame.url === "" && !frame.name.startsWith("(") && layerOf(frame) === "other";
    if (!native) return layerOf(frame);
  }
  return "other";
}

/** Self time by layer (see layerOfStack), and the top self-time functions. */
export function summarise(stacks: Stacks, top = 15): { total: number; layers: LayerShare[]; top: TopFunction[] } {
  const bySelf = new Map<number, number>();
  const perLayer = new Map<Layer, number>();
  let total = 0;
  for (const [key, n] of stacks.samples) {
    const stack = key.split(",").map(Number);
    const leaf = stack[stack.length - 1] as number;
    bySelf.set(leaf, (bySelf.get(leaf) ?? 0) + n);
    const layer = layerOfStack(stacks.frames, stack);
    perLayer.set(layer, (perLayer.get(layer) ?? 0) + n);
    total += n;
  }
  const share = (n: number) => (total > 0 ? n / total : 0);
  return {
    total,
    layers: LAYERS.map((layer) => ({
      layer,
      samples: perLayer.get(layer) ?? 0,
      share: share(perLayer.get(layer) ?? 0),
    })),
    top: [...bySelf.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([id, n]) => {
        const f = stacks.frames[id] as Frame;
        return { name: f.name, url: f.url, line: f.line, layer: layerOf(f), selfSamples: n, selfShare: share(n) };
      }),
  };
}
