// A small, local comparison of the two modes with Express, in one run (the repository's bench/ is the real
// benchmark): start-up time, and requests/s and server CPU time per request on GET /products/:id and
// GET /orders?include=user,product.
//
//   taskset -c 0 node scripts/bench-modes.ts [--cycles 10] [--burst 2] [--connections 50] [--startups 3]
//
// Each implementation runs as in production (own process, NODE_ENV=production, LOG_LEVEL=silent, the same
// DB_POOL_SIZE) on its own copy of the seeded database, pinned to CPU 1 when `taskset` exists, while autocannon
// runs here (pin this process to CPU 0). All three run at once and take turns: each cycle gives every one a short
// burst, in rotating order, so that whatever else the machine is doing falls on all of them alike. The server's
// own CPU time per request (from /proc/<pid>/stat) says what a request costs even when requests/s says little.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { OrderList, Product } from "@api-ref/contract";
import { fixtureProducts } from "@api-ref/db/fixtures";
import { prepareTemplate, provisionPostgres } from "@api-ref/db/provision";
import { type Implementation, launch, type RunningImplementation } from "@api-ref/harness";
import autocannon from "autocannon";
import type { z } from "zod";

const { values } = parseArgs({
  options: {
    cycles: { type: "string", default: "10" },
    burst: { type: "string", default: "2" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    startups: { type: "string", default: "3" },
    "pool-size": { type: "string", default: "10" },
  },
});
const cycles = Number(values.cycles);
const burst = Number(values.burst);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const startups = Number(values.startups);

const hasTaskset = (() => {
  try {
    execFileSync("taskset", ["-c", "1", "true"]);
    return os.cpus().length > 1;
  } catch {
    return false;
  }
})();
const node = (args: string[]) =>
  hasTaskset
    ? { command: "taskset", args: ["-c", "1", process.execPath, ...args] }
    : { command: process.execPath, args };

const impl = (name: string, dir: string, env: Record<string, string> = {}): Implementation => ({
  name,
  framework: name.split("-")[0] ?? name,
  variant: "default",
  language: "typescript",
  dir,
  start: { ...node(["src/server.ts"]), env },
});
const implementations = [
  impl("express", "apps/express"),
  impl("fastify-zod", "apps/fastify", { FASTIFY_MODE: "zod" }),
  impl("fastify-json-schema", "apps/fastify", { FASTIFY_MODE: "json-schema" }),
];
const scenarios: Array<{ name: string; path: string; schema: z.ZodType }> = [
  { name: "GET /products/:id", path: `/products/${fixtureProducts.ordered.id}`, schema: Product },
  { name: "GET /orders?include=user,product", path: "/orders?include=user,product", schema: OrderList },
];

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
/** User + system CPU seconds a process has used so far (Linux). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

async function hammer(app: RunningImplementation, path: string, duration: number) {
  const cpuBefore = cpuSeconds(app.pid);
  const started = performance.now();
  const result = await autocannon({ url: app.url + path, connections, pipelining: 1, duration });
  if (result.non2xx || result.errors) {
    throw new Error(`${app.impl.name} ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return {
    requests: result.requests.total,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: cpuSeconds(app.pid) - cpuBefore,
  };
}

/** The right answer first (a first connection can time out on a busy machine: a few tries). */
async function verify(app: RunningImplementation, path: string, schema: z.ZodType) {
  let res = await fetch(app.url + path);
  for (let attempt = 1; res.status === 503 && attempt < 5; attempt++) {
    await res.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    res = await fetch(app.url + path);
  }
  const body = await res.json();
  if (res.status !== 200 || !schema.safeParse(body).success) {
    throw new Error(`${app.impl.name} ${path}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const range = (xs: number[], digits = 0) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

const server = await provisionPostgres();
const running: RunningImplementation[] = [];
const startupMs = new Map<string, number[]>();
/** Per implementation and scenario: every burst's requests, seconds and CPU seconds. */
const bursts = new Map<string, Array<{ requests: number; seconds: number; cpuSeconds: number }>>();
const key = (name: string, scenario: string) => `${name} ${scenario}`;
try {
  const template = await prepareTemplate(server, { name: "bench_modes_template" });
  const databases = new Map<string, string>();
  for (const implementation of implementations) {
    const name = `bench_modes_${implementation.name.replace(/\W/g, "_")}`;
    databases.set(implementation.name, await server.createDatabase(name, { template: template.name }));
  }
  const start = (implementation: Implementation) =>
    launch(implementation, {
      databaseUrl: databases.get(implementation.name) as string,
      jwtSecret: "bench-modes-secret-0123456789",
      env: { DB_POOL_SIZE: values["pool-size"] },
    });

  // Start-up: spawn to first healthy /health, a few times each, in rotating order.
  for (let i = 0; i < startups; i++) {
    for (let j = 0; j < implementations.length; j++) {
      const implementation = implementations[(i + j) % implementations.length] as Implementation;
      const app = await start(implementation);
      startupMs.set(implementation.name, [...(startupMs.get(implementation.name) ?? []), app.startupMs]);
      await app.stop();
    }
  }

  for (const implementation of implementations) running.push(await start(implementation));
  for (const scenario of scenarios) {
    for (const app of running) {
      await verify(app, scenario.path, scenario.schema);
      await hammer(app, scenario.path, warmup);
    }
    for (let cycle = 0; cycle < cycles; cycle++) {
      for (let j = 0; j < running.length; j++) {
        const app = running[(cycle + j) % running.length] as RunningImplementation;
        const measured = await hammer(app, scenario.path, burst);
        const k = key(app.impl.name, scenario.name);
        bursts.set(k, [...(bursts.get(k) ?? []), measured]);
      }
      process.stderr.write(`${scenario.name}: cycle ${cycle + 1}/${cycles}\n`);
    }
  }
} finally {
  await Promise.allSettled(running.map((app) => app.stop()));
  await server.stop();
}

const rpsOf = (name: string, scenario: string) => {
  const b = bursts.get(key(name, scenario)) ?? [];
  return {
    rps: b.reduce((s, x) => s + x.requests, 0) / b.reduce((s, x) => s + x.seconds, 0),
    perBurst: b.map((x) => x.requests / x.seconds),
    cpuUs: (b.reduce((s, x) => s + x.cpuSeconds, 0) * 1e6) / b.reduce((s, x) => s + x.requests, 0),
  };
};
const lines = [
  `| implementation | start-up ms | ${scenarios.map((s) => `${s.name}: req/s | CPU µs/req`).join(" | ")} |`,
  `|---|---|${scenarios.map(() => "---|---").join("|")}|`,
];
for (const implementation of implementations) {
  const starts = startupMs.get(implementation.name) ?? [];
  const cells = scenarios.map((s) => {
    const mine = rpsOf(implementation.name, s.name);
    const express = rpsOf("express", s.name);
    return (
      `${Math.round(mine.rps)} (${(mine.rps / express.rps).toFixed(2)}×; bursts ${range(mine.perBurst)}) | ` +
      `${Math.round(mine.cpuUs)} (${(mine.cpuUs / express.cpuUs).toFixed(2)}×)`
    );
  });
  lines.push(`| ${implementation.name} | ${Math.round(median(starts))} (${range(starts)}) | ${cells.join(" | ")} |`);
}
console.log(
  [
    `${cycles} cycles × ${burst} s bursts per implementation and route (after ${warmup} s of warm-up), ` +
      `${connections} connections, no pipelining, DB_POOL_SIZE=${values["pool-size"]}; start-up: median of ${startups}`,
    `${os.cpus()[0]?.model} × ${os.cpus().length}, Node ${process.version}, ` +
      `${hasTaskset ? "servers on CPU 1, load generator on CPU 0" : "no CPU pinning"}, ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}, ${new Date().toISOString().slice(0, 10)}`,
    "",
    ...lines,
  ].join("\n"),
);
