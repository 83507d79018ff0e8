// Setup file of the contract suite: in a URL run, counts every request the suite sends to the server and the
// status it got, whichever client sent it — supertest and the harness's `send` (node:http), `fetch` (undici) and
// the harness's raw-socket `exchange` — from the diagnostics channels each of them publishes on, so no check has
// to report its own requests. After each check the file's counts so far go into the file's task meta, which the
// coverage reporter (coverage-reporter.ts) reads in the main process.
import { subscribe } from "node:diagnostics_channel";
import type { ClientRequest, IncomingMessage } from "node:http";
import { type ExchangeRecord, exchangeChannel } from "@api-ref/harness";
import { afterEach, inject } from "vitest";
import type { Observation } from "./coverage.ts";

declare module "vitest" {
  interface TaskMeta {
    /** The requests this file's checks sent to the URL target, counted by method, target and status. */
    requests?: Observation[];
  }
}

const targets = inject("contract").targets;
const url = targets.length === 1 && targets[0]?.name === "url" ? new URL(targets[0].url) : null;

if (url) {
  const counts = new Map<string, Observation>();
  const record = (method: string, target: string, status: number) => {
    const key = `${method} ${status} ${target}`;
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { method, target, status, count: 1 });
  };
  // In a URL run the suite speaks HTTP to nothing but the server (its database is PostgreSQL's protocol), so the
  // port tells its requests apart; a host name given in the URL (localhost) need not match a socket's address.
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const isTarget = (p: string | number | undefined) => String(p) === port;

  // node:http — supertest and the harness's send().
  subscribe("http.client.response.finish", (message) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    const p =
      request.socket?.remotePort ??
      String(request.getHeader("host") ?? "")
        .split(":")
        .pop();
    if (isTarget(p) && response.statusCode) record(request.method, request.path, response.statusCode);
  });
  // fetch (undici, bundled in Node).
  subscribe("undici:request:headers", (message) => {
    const { request, response } = message as {
      request: { origin: string; method: string; path: string };
      response: { statusCode: number };
    };
    const origin = new URL(request.origin);
    if (isTarget(origin.port || "80")) record(request.method, request.path, response.statusCode);
  });
  // The harness's raw-socket exchange(): request lines read from the bytes written, paired in order with the
  // responses (pipelined requests get one response each; a request refused before its line was read gets none).
  exchangeChannel.subscribe((message) => {
    const { baseUrl, request, responses } = message as ExchangeRecord;
    const base = new URL(baseUrl);
    if (!isTarget(base.port || "80")) return;
    const lines = [...request.toString("latin1").matchAll(/([A-Z]{3,7}) (\S+) HTTP\/1\.[01]\r?\n/g)];
    responses.forEach((response, i) => {
      const line = lines[i];
      if (line?.[1] && line[2]) record(line[1], line[2], response.status);
    });
  });

  afterEach((context) => {
    context.task.file.meta.requests = [...counts.values()];
  });
}
