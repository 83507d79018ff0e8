// The same app on Bun and Deno (src/server.bun.ts, src/server.deno.ts), started as the registry starts rows hono-bun
// and hono-deno: the runtime's binary from node_modules, configured by the environment alone. What only the
// process shows: /health names the framework, the app's own problems and the shared data access are wired in, the
// contract's HTTP rules the runtime's server leaves to the app hold, the rate limit (AUTH_RATE_LIMIT from the
// environment) and the security headers, and SIGTERM lets a request in flight finish before exit 0. Run by vitest under Node like the app's other tests: the entry points need their runtime's globals,
// so each test starts the runtime as a process, and one file covers both (Bun's test runner could not start Deno).
// No database: DATABASE_URL names a closed port, so a route that needs it answers 503.
import net from "node:net";
import { API_CONTENT_SECURITY_POLICY, docsContentSecurityPolicy } from "@api-ref/contract";
import { exchange, implementations, launch, type RunningImplementation } from "@api-ref/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** JWT_SECRET: at least 32 bytes, or the app refuses to start. */
const SECRET = "x".repeat(32);
/** AUTH_RATE_LIMIT of the instance the tests share: small, reached only by the test about it. */
const AUTH_RATE_LIMIT = 2;

const rows = implementations.filter((impl) => impl.name === "hono-bun" || impl.name === "hono-deno");

describe.each(rows)("$name ($start.command)", (impl) => {
  let running: RunningImplementation;
  beforeAll(async () => {
    if (impl.unavailable) return;
    running = await launch(impl, {
      databaseUrl: "postgres://nobody@127.0.0.1:1/nothing",
      jwtSecret: SECRET,
      timeoutMs: 20_000,
      env: { AUTH_RATE_LIMIT: String(AUTH_RATE_LIMIT) },
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
      // Products are public: the request reaches the database (a signed-in route would stop at its 401).
      const products = await fetch(`${running.url}/products`);
      expect(products.status).toBe(503);
      expect(((await products.json()) as { type: string }).type).toMatch(/\/unavailable$/);
    },
  );

  it.skipIf(impl.unavailable)(
    "limits POST /auth/login to AUTH_RATE_LIMIT a window: a 429 problem with retry-after, before the media type",
    async () => {
      const login = () =>
        fetch(`${running.url}/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "nobody@example.com", password: "wrong-password" }),
        });
      // Every request counts, whatever its answer (here the database's 503).
      for (let i = 0; i < AUTH_RATE_LIMIT; i++) expect((await login().then(consumed)).status).toBe(503);
      const limited = await login();
      expect(limited.status).toBe(429);
      expect(limited.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await limited.json()) as { type: string }).type).toBe("/problems/too-many-requests");
      const plain = await fetch(`${running.url}/auth/login`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "{}",
      }).then(consumed);
      expect(plain.status).toBe(429);
      // Register is counted apart: its first request reaches validation.
      const register = await fetch(`${running.url}/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }).then(consumed);
      expect(register.status).toBe(400);
    },
  );

  it.skipIf(impl.unavailable)(
    "sends the security headers on a JSON answer, a problem, and /docs (with the page's own policy)",
    async () => {
      for (const [path, policy] of [
        ["/health", API_CONTENT_SECURITY_POLICY],
        ["/nowhere", API_CONTENT_SECURITY_POLICY],
        ["/docs", docsContentSecurityPolicy()],
      ] as const) {
        const res = await fetch(`${running.url}${path}`).then(consumed);
        expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
        expect(res.headers.get("x-frame-options"), path).toBe("DENY");
        expect(res.headers.get("content-security-policy"), path).toBe(policy);
      }
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
        jwtSecret: SECRET,
        timeoutMs: 20_000,
      });
      try {
        const inFlight = fetch(`${held.url}/products`).then(async (res) => ({
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
        // Refused once the listener is closed; reset if, on a busy machine, it was accepted just before the signal ran.
        expect(["ECONNREFUSED", "ECONNRESET"]).toContain(fresh);
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

/** The response, its body read (so that the connection is free for the next request). */
async function consumed(res: Response): Promise<Response> {
  await res.arrayBuffer();
  return res;
}
