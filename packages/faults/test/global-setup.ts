// The suite's own PostgreSQL server (the database outage stops it, so it is shared with nothing else), one seeded
// template that every fault copies, the builds, and a small control endpoint through which the outage test —
// which runs in a worker process — stops and starts that server.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareTemplate, provisionPostgres } from "@api-ref/db";
import { selectImplementations } from "@api-ref/harness";
import type { TestProject } from "vitest/node";
import { buildImplementations } from "../src/app.ts";
import { type FaultSettings, settingsFromEnv } from "../src/options.ts";

export interface SuiteContext {
  settings: FaultSettings;
  adminUrl: string;
  template: string;
  provider: string;
  jwtSecret: string;
  /** POST `${controlUrl}/stop` and `/start` stop and start the suite's server; null when its provider cannot. */
  controlUrl: string | null;
  /** Build failures by implementation name. */
  buildErrors: Record<string, string>;
  /** Where each finished cell is recorded, for the progress lines (src/report/progress.ts). */
  progressFile: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    faults: SuiteContext;
  }
}

const log = (line: string) => process.stderr.write(`${line}\n`);

export default async function setup(project: TestProject) {
  const settings = settingsFromEnv();
  const impls = selectImplementations(settings.impls.join(","));
  log(
    `faults: ${settings.mode} mode; ${impls.length} implementation(s): ${impls.map((i) => i.name).join(", ")}; ` +
      `faults: ${settings.faults.join(", ")}; seed ${settings.seed}`,
  );
  // The outage fault stops the server, so the suite starts one of its own unless told otherwise.
  const env = { ...process.env };
  if (!env.PG_PROVIDER) env.PG_PROVIDER = "embedded";
  const server = await provisionPostgres({ env });
  let control: http.Server | undefined;
  const progressDir = mkdtempSync(join(tmpdir(), "faults-progress-"));
  const teardown = async () => {
    rmSync(progressDir, { recursive: true, force: true });
    await new Promise<void>((resolve) => (control ? control.close(() => resolve()) : resolve()));
    await server.startServer?.().catch(() => {});
    await server.stop();
  };
  try {
    const started = Date.now();
    const template = await prepareTemplate(server, { name: "faults_template" });
    log(`faults: seeded template ${template.name} in ${Date.now() - started} ms`);
    const buildErrors = await buildImplementations(impls, log);
    let controlUrl: string | null = null;
    const { stopServer, startServer } = server;
    if (stopServer && startServer) {
      let queue = Promise.resolve();
      control = http.createServer((req, res) => {
        const action =
          req.method === "POST" && req.url === "/stop" ? stopServer : req.url === "/start" ? startServer : null;
        if (!action || req.method !== "POST") {
          res.writeHead(404).end();
          return;
        }
        queue = queue.then(async () => {
          const t0 = performance.now();
          try {
            await action();
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify({ ms: performance.now() - t0 }));
          } catch (error) {
            res.writeHead(500, { "content-type": "text/plain" }).end(String((error as Error).stack ?? error));
          }
        });
      });
      await new Promise<void>((resolve) => control?.listen(0, "127.0.0.1", resolve));
      controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
    } else {
      log(`faults: the ${server.provider} provider cannot stop and start its server: the db-outage fault is skipped`);
    }
    project.provide("faults", {
      settings,
      adminUrl: server.adminUrl,
      template: template.name,
      provider: server.provider,
      jwtSecret: randomBytes(32).toString("base64url"),
      controlUrl,
      buildErrors,
      progressFile: join(progressDir, "finished.jsonl"),
    });
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
