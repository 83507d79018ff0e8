// The limits every implementation states (README "Edges of HTTP"): a client too slow with its head or its body is
// disconnected within the bound while the server keeps answering others, and an idle keep-alive connection is
// closed after its timeout but serves a second request before it. Sizes (431 past 16 KiB of head, 413 past 1 MiB of
// body) are checked by the battery and the errors suite. Bounds are the contract's, with slack for a busy machine:
// what is checked is that a slow client is cut off at all, well before it would finish, not how fast.
import net from "node:net";
import { deviationOf, exchange } from "@api-ref/harness";
import { describe, expect, it } from "vitest";
import { targets } from "./targets.ts";

const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Node checks its timeouts once a second; the rest is room for a loaded machine. */
const SLACK_MS = 6_000;

interface Trickle {
  /** Milliseconds from the first byte until the server closed the connection (null: still open at the end). */
  closedAfterMs: number | null;
  /** What the server wrote before closing (a 408 status line, or nothing). */
  received: string;
  /** Statuses of normal requests sent by another client while this one trickled. */
  othersServed: number[];
}

/**
 * Writes `head` at once, then `trickle` one byte a second (a slow client), until the server closes the connection
 * or `giveUpMs` passes; meanwhile another client sends `GET /health` every 3 s.
 */
function trickle(url: string, head: string, trickleBytes: string, giveUpMs: number): Promise<Trickle> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let received = "";
    const othersServed: number[] = [];
    let started = 0;
    let done = false;
    let sent = 0;
    const timers: NodeJS.Timeout[] = [];
    const finish = (closedAfterMs: number | null) => {
      if (done) return;
      done = true;
      for (const t of timers) clearInterval(t);
      socket.destroy();
      resolve({ closedAfterMs, received, othersServed });
    };
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    socket.on("close", () => finish(Date.now() - started));
    socket.on("error", () => finish(Date.now() - started));
    socket.on("connect", () => {
      started = Date.now();
      socket.write(head);
      timers.push(
        setInterval(() => {
          if (socket.destroyed) return;
          socket.write(trickleBytes[sent % trickleBytes.length] as string);
          sent++;
        }, 1_000),
        setInterval(() => {
          void fetch(`${url}/health`, { signal: AbortSignal.timeout(2_500) })
            .then(async (res) => {
              await res.arrayBuffer();
              othersServed.push(res.status);
            })
            .catch(() => othersServed.push(0));
        }, 3_000),
        setTimeout(() => finish(null), giveUpMs),
      );
    });
  });
}

interface KeepAlive {
  /** Status lines of the two requests sent a second apart on one connection. */
  answered: number;
  /** Milliseconds from the second answer until the server closed the idle connection (null: never). */
  closedAfterIdleMs: number | null;
  received: string;
}

async function keepAlive(url: string): Promise<KeepAlive> {
  const { hostname, port, host } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  let received = "";
  let closedAt: number | null = null;
  socket.on("data", (c: Buffer) => {
    received += c.toString("latin1");
  });
  const closed = new Promise<void>((resolve) => {
    socket.on("close", () => {
      closedAt = Date.now();
      resolve();
    });
    socket.on("error", () => resolve());
  });
  await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
  const get = `GET /health HTTP/1.1\r\nhost: ${host}\r\n\r\n`;
  socket.write(get);
  await new Promise((r) => setTimeout(r, 1_000));
  socket.write(get);
  await new Promise((r) => setTimeout(r, 300));
  const idleFrom = Date.now();
  await Promise.race([closed, new Promise((r) => setTimeout(r, KEEP_ALIVE_TIMEOUT_MS + SLACK_MS + 5_000))]);
  socket.destroy();
  return {
    answered: received.match(/HTTP\/1\.1 200 /g)?.length ?? 0,
    closedAfterIdleMs: closedAt === null ? null : closedAt - idleFrom,
    received,
  };
}

async function sizes(url: string): Promise<Array<number | undefined>> {
  const { host } = new URL(url);
  const head = (target: string, filler: number) =>
    `GET ${target} HTTP/1.1\r\nhost: ${host}\r\nx-filler: ${"a".repeat(filler)}\r\nconnection: close\r\n\r\n`;
  const answers = await Promise.all([
    exchange(url, head("/health", 17_000)),
    exchange(url, head("/health", 15_000)),
    exchange(url, head(`/health?${"a".repeat(17_000)}`, 1)),
  ]);
  return answers.map((a) => a.responses[0]?.status);
}

// Every scenario against every implementation at once (they are slow by design: about 40 s in all), in one place.
const runs = new Map<
  string,
  Promise<{ head: Trickle; body: Trickle; keepAlive: KeepAlive; sizes: Array<number | undefined> }>
>();
function run(target: { name: string; url: string }) {
  let pending = runs.get(target.name);
  if (!pending) {
    for (const t of targets) {
      const { host } = new URL(t.url);
      runs.set(
        t.name,
        (async () => {
          const [head, body, alive, size] = await Promise.all([
            trickle(
              t.url,
              `GET /health HTTP/1.1\r\nhost: ${host}\r\n`,
              "x-slow: abcdefghijklmnopqrstuvwxyz",
              HEADERS_TIMEOUT_MS + SLACK_MS + 5_000,
            ),
            trickle(
              t.url,
              `POST /echo HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{"a":"`,
              "b",
              REQUEST_TIMEOUT_MS + SLACK_MS + 5_000,
            ),
            keepAlive(t.url),
            sizes(t.url),
          ]);
          return { head, body, keepAlive: alive, sizes: size };
        })(),
      );
    }
    pending = runs.get(target.name);
  }
  return pending as NonNullable<typeof pending>;
}

const TIMEOUT = REQUEST_TIMEOUT_MS + SLACK_MS + 30_000;

describe.each(targets)("$name", (target) => {
  it.each([
    { part: "head" as const, timeout: "head", limitMs: HEADERS_TIMEOUT_MS, othersAtLeast: 2 },
    { part: "body" as const, timeout: "request", limitMs: REQUEST_TIMEOUT_MS, othersAtLeast: 5 },
  ])(
    "disconnects a client that sends its $part a byte a second within the $timeout timeout, serving others meanwhile",
    async ({ part, timeout, limitMs, othersAtLeast }) => {
      const slow = (await run(target))[part];
      const deviation = deviationOf(target.name, `${timeout} timeout`);
      if (deviation?.answer === "not enforced") {
        // A known deviation (harness deviations.ts): still connected when the client gave up, others served.
        expect(slow.closedAfterMs, `the known deviation (${deviation.why}) no longer holds`).toBeNull();
        expect(slow.othersServed.every((s) => s === 200)).toBe(true);
        return;
      }
      expect(slow.closedAfterMs, `still connected; received ${JSON.stringify(slow.received)}`).not.toBeNull();
      expect(slow.closedAfterMs).toBeLessThanOrEqual(limitMs + SLACK_MS);
      // Nothing but a 408 (or nothing at all) may answer a request that never completed.
      expect(slow.received === "" || /^HTTP\/1\.1 408 /.test(slow.received), slow.received).toBe(true);
      expect(slow.othersServed.length).toBeGreaterThanOrEqual(othersAtLeast);
      expect(
        slow.othersServed.every((s) => s === 200),
        `others got ${slow.othersServed}`,
      ).toBe(true);
    },
    TIMEOUT,
  );

  it(
    "keeps an idle connection open for a second request, then closes it after the keep-alive timeout",
    async () => {
      const { keepAlive } = await run(target);
      expect(keepAlive.answered, keepAlive.received.slice(0, 300)).toBe(2);
      const deviation = deviationOf(target.name, "keep-alive timeout");
      if (deviation?.answer === "not enforced") {
        expect(keepAlive.closedAfterIdleMs, `the known deviation (${deviation.why}) no longer holds`).toBeNull();
        return;
      }
      expect(keepAlive.closedAfterIdleMs, "the idle connection was never closed").not.toBeNull();
      expect(keepAlive.closedAfterIdleMs).toBeLessThanOrEqual(KEEP_ALIVE_TIMEOUT_MS + SLACK_MS);
    },
    TIMEOUT,
  );

  it(
    "answers a head over 16 KiB with 431 (a long URL too), and one just under with 200",
    async () => {
      const { sizes } = await run(target);
      expect(sizes).toEqual([431, 200, 431]);
    },
    TIMEOUT,
  );
});
