// A small, local comparison of the two modes with Express, in one run (the repository's bench/ is the real
// benchmark): start-up time and requests/s on GET /products/:id and GET /orders?include=user,product.
//
//   taskset -c 0 node scripts/bench-modes.ts [--rounds 3] [--seconds 10] [--connections 50]
//
// Each implementation runs as in production (own process, NODE_ENV=production, LOG_LEVEL=silent, the same
// DB_POOL_SIZE) on its own copy of the seeded database, pinned to CPU 1 when `taskset` exists, while autocannon
// runs here (pin this process to CPU 0). Rounds rotate the order of the implementations; medians are reported.
// Besides requests/s it reports the server's own CPU time per request (from /proc/<pid>/stat), which says what
// a request costs even when other processes share the machine and requests/s says little.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { OrderList, Product } from "@api-ref/contract";
import type { Implementation } from "@api-ref/contract/implementations";
import { launch } from "@api-ref/contract/launcher";
import { fixtureProducts } from "@api-ref/db/fixtures";
import { prepareTemplate, provisionPostgres } from "@api-ref/db/provision";
import autocannon from "autocannon";
import type { z } from "zod";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    "pool-size": { type: "string", default: "10" },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const connections = Number(values.connections);

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

async function hammer(url: string, duration: number, pid: number) {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ url, connections, pipelining: 1, duration });
  const cpuUs = ((cpuSeconds(pid) - cpuBefore) * 1e6) / result.requests.total;
  return { rps: result.requests.average, cpuUs, non2xx: result.non2xx, errors: result.errors };
}

const server = await provisionPostgres();
interface Measured {
  startupMs: number[];
  rps: Map<string, number[]>;
  cpuUs: Map<string, number[]>;
}
const results = new Map<string, Measured>();
try {
  const template = await prepareTemplate(server, { name: "bench_modes_template" });
  for (let round = 0; round < rounds; round++) {
    const order = implementations.map(
      (_, i) => implementations[(i + round) % implementations.length] as Implementation,
    );
    for (const implementation of order) {
      const databaseUrl = await server.createDatabase(
        `bench_modes_${round}_${implementation.name.replace(/\W/g, "_")}`,
        {
          template: template.name,
        },
      );
      const app = await launch(implementation, {
        databaseUrl,
        jwtSecret: "bench-modes-secret-0123456789",
        env: { DB_POOL_SIZE: values["pool-size"] },
      });
      const entry: Measured = results.get(implementation.name) ?? { startupMs: [], rps: new Map(), cpuUs: new Map() };
      results.set(implementation.name, entry);
      entry.startupMs.push(app.startupMs);
      try {
        for (const scenario of scenarios) {
          const res = await fetch(app.url + scenario.path);
          const body = await res.json();
          if (res.status !== 200 || !scenario.schema.safeParse(body).success) {
            throw new Error(
              `${implementation.name} ${scenario.name}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`,
            );
          }
          await hammer(app.url + scenario.path, warmup, app.pid);
          const measured = await hammer(app.url + scenario.path, seconds, app.pid);
          if (measured.non2xx || measured.errors) {
            throw new Error(
              `${implementation.name} ${scenario.name}: ${measured.non2xx} non-2xx, ${measured.errors} errors`,
            );
          }
          entry.rps.set(scenario.name, [...(entry.rps.get(scenario.name) ?? []), measured.rps]);
          entry.cpuUs.set(scenario.name, [...(entry.cpuUs.get(scenario.name) ?? []), measured.cpuUs]);
          process.stderr.write(
            `round ${round + 1}: ${implementation.name} ${scenario.name} ${Math.round(measured.rps)} req/s, ` +
              `${Math.round(measured.cpuUs)} µs CPU/req\n`,
          );
        }
      } finally {
        await app.stop();
      }
    }
  }
} finally {
  await server.stop();
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const spread = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;
const express = results.get("express");
const lines = [
  `| implementation | start-up (ms) | ${scenarios.map((s) => `${s.name}: req/s | CPU µs/req`).join(" | ")} |`,
  `|---|---|${scenarios.map(() => "---|---").join("|")}|`,
];
for (const [name, entry] of results) {
  const cells = scenarios.map((s) => {
    const rps = entry.rps.get(s.name) ?? [];
    const cpu = entry.cpuUs.get(s.name) ?? [];
    const rpsRatio = median(rps) / median(express?.rps.get(s.name) ?? rps);
    const cpuRatio = median(cpu) / median(express?.cpuUs.get(s.name) ?? cpu);
    return `${Math.round(median(rps))} (${spread(rps)}) ${rpsRatio.toFixed(2)}× | ${Math.round(median(cpu))} (${spread(cpu)}) ${cpuRatio.toFixed(2)}×`;
  });
  lines.push(
    `| ${name} | ${Math.round(median(entry.startupMs))} (${spread(entry.startupMs)}) | ${cells.join(" | ")} |`,
  );
}
console.log(
  [
    `${rounds} rounds × ${seconds} s, ${connections} connections, no pipelining, DB_POOL_SIZE=${values["pool-size"]}, medians (min–max)`,
    `${os.cpus()[0]?.model} × ${os.cpus().length}, Node ${process.version}, ${hasTaskset ? "server on CPU 1, load generator on CPU 0" : "no CPU pinning"}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
    "",
    ...lines,
  ].join("\n"),
);
