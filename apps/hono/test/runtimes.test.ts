// The same app on Bun and Deno (src/server.bun.ts, src/server.deno.ts), started as the registry starts rows hono-bun
// and hono-deno: the runtime's binary from node_modules, configured by the environment alone. What only the
// process shows: /health names the framework, the app's own problems and core's data access are wired in, the
// contract's HTTP rules the runtime's server leaves to the app hold, and SIGTERM lets a request in flight finish
// before exit 0. Run by vitest under Node like the app's other tests: the entry points need their runtime's globals,
// so each test starts the runtime as a process, and one file covers both (Bun's test runner could not start Deno).
// No database: DATABASE_URL names a closed port, so a route that needs it answers 503.
import net from "node:net";
import { exchange, implementations, launch, type RunningImplementation } from "@api-ref/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const rows = implementations.filter((impl) => impl.name === "hono-bun" || impl.name === "hono-deno");

describe.each(rows)("$name ($start.command)", (impl) => {
  let running: RunningImplementation;
  beforeAll(async () => {
    if (impl.unavailable) return;
    running = await launch(impl, {
      databaseUrl: "postgres://nobody@127.0.0.1:1/nothing",
      jwtSecret: "a-secret-of-16-chars-or-more",
      timeoutMs: 20_000,
    });
  }, 30_000);
  afterAll(async () => {
    await running?.stop();
  });

  it.skipIf(impl.unavailable)("answers /health with the framework it is, and a request id", async () => {
    const res = await fetch(`${running.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toMatchObject({ status: "ok", framework: "hono" });
  });

  it.skipIf(impl.unavailable)(
    "answers an unknown path with the app's problem, and a route on the database with a 503",
    async () => {
      const unknown = await fetch(`${running.url}/nowhere`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      await unknown.arrayBuffer();
      const users = await fetch(`${running.url}/users`);
      expect(users.status).toBe(503);
      expect(((await users.json()) as { type: string }).type).toMatch(/\/unavailable$/);
    },
  );

  it.skipIf(impl.unavailable)(
    "refuses what Node's parser refuses: a head over 16 KiB (431), an unknown expectation (417)",
    async () => {
      const { host } = new URL(running.url);
      const head = (extra: string) => `GET /health HTTP/1.1\r\nhost: ${host}\r\n${extra}connection: close\r\n\r\n`;
      const [tooLarge, underLimit, expectation] = await Promise.all([
        exchange(running.url, head(`x-filler: ${"a".repeat(17_000)}\r\n`)),
        exchange(running.url, head(`x-filler: ${"a".repeat(15_000)}\r\n`)),
        exchange(running.url, head("expect: something-else\r\n")),
      ]);
      expect(tooLarge.responses[0]?.status).toBe(431);
      expect(underLimit.responses[0]?.status).toBe(200);
      expect(expectation.responses[0]?.status).toBe(417);
    },
  );

  it.skipIf(impl.unavailable)(
    "on SIGTERM answers the request in flight, then refuses new connections and exits 0",
    async () => {
      // A request held up on the database: a server that accepts its connection and never answers, for longer than
      // the signal takes (the data access gives up after 2 s and the app answers 503).
      const silent = net.createServer(() => undefined);
      await new Promise((resolve) => silent.listen(0, "127.0.0.1", () => resolve(undefined)));
      const held = await launch(impl, {
        databaseUrl: `postgres://nobody@127.0.0.1:${(silent.address() as net.AddressInfo).port}/nothing`,
        jwtSecret: "a-secret-of-16-chars-or-more",
        timeoutMs: 20_000,
      });
      try {
        const inFlight = fetch(`${held.url}/users`).then(async (res) => ({
          status: res.status,
          body: await res.text(),
        }));
        await new Promise((resolve) => setTimeout(resolve, 500));
        const exitCode = held.stop();
        await new Promise((resolve) => setTimeout(resolve, 300));
        const fresh = await fetch(`${held.url}/health`).then(
          () => "answered",
          (error: Error) => (error.cause as NodeJS.ErrnoException | undefined)?.code,
        );
        expect(fresh).toBe("ECONNREFUSED");
        const answer = await inFlight;
        expect(answer.status, answer.body).toBe(503);
        expect(await exitCode).toBe(0);
      } finally {
        await held.stop();
        silent.close();
      }
    },
    20_000,
  );
});
