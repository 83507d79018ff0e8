// Secrets never reach the logs: every implementation, started for this file at LOG_LEVEL=info (the production
// default) on a fresh copy of the seed, registers a user, logs in, is asked who the caller is, and is sent a
// wrong password and a refused token; then nothing it wrote to stdout or stderr holds a password or a token
// (docs/api.md: no `authorization` header value, password or token in any log line).
import { randomBytes, randomUUID } from "node:crypto";
import { type PostgresServer, provisionPostgres } from "@api-ref/db/provision";
import { launch, NEEDS, type RunningImplementation, selectImplementations } from "@api-ref/harness";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contract, describeEachTarget, http } from "./targets.ts";

const impls = contract.adminUrl ? selectImplementations(process.env.CONTRACT_IMPLS) : [];

/** Every place a secret could show: the whole value, and for a token its signature alone (a truncated line). */
function secretsIn(output: string, secrets: Record<string, string>) {
  const found: string[] = [];
  for (const [what, value] of Object.entries(secrets)) {
    if (output.includes(value)) found.push(what);
    const signature = value.split(".")[2];
    if (signature && signature.length >= 20 && output.includes(signature)) found.push(`${what} (its signature)`);
  }
  return found;
}

let server: PostgresServer | undefined;
const running: RunningImplementation[] = [];

afterAll(async () => {
  await Promise.allSettled(running.map((r) => r.stop()));
  await server?.stop();
});

// Every implementation side by side: each has its own process and database, and most of the file is their start.
describeEachTarget((target) => {
  const impl = impls.find((i) => i.name === target.name);
  if (!impl) {
    it("logs no password and no token at LOG_LEVEL=info", (ctx) => {
      ctx.skip(NEEDS.ownInstances);
    });
    return;
  }

  let app: RunningImplementation;
  beforeAll(async () => {
    const { adminUrl, template } = contract;
    if (!adminUrl || !template) throw new Error("the logs check needs the suite's database server");
    server ??= await provisionPostgres({ env: { PG_PROVIDER: "env", DATABASE_URL: adminUrl }, log() {} });
    const name = `logs_${impl.name.toLowerCase().replace(/[^a-z0-9]/g, "_")}_${randomBytes(3).toString("hex")}`;
    const databaseUrl = await server.createDatabase(name.slice(0, 63), { template });
    app = await launch(impl, { databaseUrl, jwtSecret: contract.jwtSecret, logLevel: "info", outputChars: Infinity });
    running.push(app);
  });

  it("logs no password and no token at LOG_LEVEL=info, after register, login and /auth/me", async () => {
    const api = http(app);
    const email = `logs-${randomUUID()}@logs.contract.example.com`;
    const password = `pw-${randomUUID()}`;
    const wrongPassword = `wrong-${randomUUID()}`;
    const registered = await api.post("/auth/register").send({ email, name: "Logs Check", password });
    expect(registered.status, registered.text).toBe(201);
    const login = await api.post("/auth/login").send({ email, password });
    expect(login.status, login.text).toBe(200);
    const token = login.body.token as string;
    const me = await api.get("/auth/me").set("authorization", `Bearer ${token}`);
    expect(me.status, me.text).toBe(200);
    // The failures log too: a wrong password, a refused token (the registration's, with its signature changed).
    expect((await api.post("/auth/login").send({ email, password: wrongPassword })).status).toBe(401);
    const refused = `${registered.body.token.slice(0, -4)}AAAA`;
    expect((await api.get("/auth/me").set("authorization", `Bearer ${refused}`)).status).toBe(401);
    // And a token on a route that writes, with a body.
    const patched = await api
      .patch(`/users/${registered.body.user.id}`)
      .set("authorization", `Bearer ${token}`)
      .send({ name: "Logs Checked" });
    expect(patched.status, patched.text).toBe(200);

    // Give the logger a moment to write what it buffered, then read everything the process wrote.
    await new Promise((r) => setTimeout(r, 500));
    const output = app.output();
    // Not a vacuous pass: the process logs at info (the contract does not require a line per request, so that
    // is all it can ask).
    expect(output.trim(), "the process wrote nothing at LOG_LEVEL=info").not.toBe("");
    const found = secretsIn(output, {
      "the password": password,
      "the wrong password": wrongPassword,
      "the token issued at registration": registered.body.token as string,
      "the token issued at login": token,
      "the refused token": refused,
    });
    expect(found, `the logs hold ${found.join(", ")}:\n${output.slice(-4000)}`).toEqual([]);
  });
});
