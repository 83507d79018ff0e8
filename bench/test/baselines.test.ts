// The no-framework baselines — every runtime's — pass the verification of every scenario they are a baseline of, on
// a real seeded database: a ratio to a baseline that answers wrongly would mean nothing. The database baselines also
// refuse callers as every implementation does (docs/api.md, "Authorization"), so that their figures include the same
// work: a token verified and its user's role read on every route that needs a caller. A baseline whose runtime has
// no binary here is left out, as a run leaves it out. BASELINES_ONLY=a,b runs only those (a quicker look at one).
import { randomBytes, randomUUID } from "node:crypto";
import {
  fieldErrors,
  ListOrdersQuery,
  ListProductsQuery,
  ListUsersQuery,
  type Page,
  PRODUCT_SORTS,
} from "@api-ref/contract";
import { PROBLEMS } from "@api-ref/contract/problem-kinds";
import { fixtureUsers, MISSING_ID } from "@api-ref/db/fixtures";
import { type PostgresServer, prepareTemplate, provisionPostgres } from "@api-ref/db/provision";
import { bearerFor, build, forgeToken, launch, type RunningImplementation } from "@api-ref/harness";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { BASELINES as ALL } from "../src/baselines.ts";
import { restock, samplePools } from "../src/run.ts";
import { createRng, type Pools, SCENARIO_NAMES, scenarios } from "../src/scenarios/catalog.ts";
import { verifyScenario } from "../src/verify.ts";

const only = process.env.BASELINES_ONLY ? process.env.BASELINES_ONLY.split(",") : undefined;
const BASELINES = ALL.filter((b) => !b.unavailable && (!only || only.includes(b.name)));

let server: PostgresServer;
let pools: Pools;
// Every baseline on one secret, which the scenarios sign their callers' tokens with, as in a run.
const jwtSecret = randomBytes(32).toString("base64url");
const running = new Map<string, RunningImplementation>();
const databases = new Map<string, string>();

beforeAll(async () => {
  server = await provisionPostgres();
  const template = await prepareTemplate(server, { name: "bench_test_template" });
  pools = await samplePools(template.url, createRng(11), jwtSecret);
  for (const baseline of BASELINES) {
    // raw-asgi shares FastAPI's build (its contract export); the Node baselines have none.
    const built = await build(baseline);
    if (!built.ok) throw new Error(`${baseline.name}: ${built.error}`);
    const databaseUrl = await server.createDatabase(`bench_test_${baseline.name.replace(/\W/g, "_")}`, {
      template: template.name,
    });
    databases.set(baseline.name, databaseUrl);
    running.set(baseline.name, await launch(baseline, { databaseUrl, jwtSecret, env: { DB_POOL_SIZE: "4" } }));
  }
}, 180_000);

afterAll(async () => {
  await Promise.allSettled([...running.values()].map((r) => r.stop()));
  await server?.stop();
});

const cases = SCENARIO_NAMES.flatMap((name) =>
  BASELINES.filter((b) => b.baselineFor === scenarios[name].kind).map((b) => [name, b.name] as const),
);

describe("baselines", () => {
  it.each(cases)("%s: %s passes verification", async (name, baselineName) => {
    const baseline = BASELINES.find((b) => b.name === baselineName) as (typeof BASELINES)[number];
    const app = running.get(baseline.name);
    expect(app, `${baseline.name} is running`).toBeDefined();
    // As in a run: write scenarios order from products the harness has restocked.
    if (scenarios[name].writes) await restock(databases.get(baseline.name) as string, pools.orderProductIds);
    // The scrypt routes as many answers as a run verifies (each costs a hash); the others 48.
    const result = await verifyScenario(app?.url as string, scenarios[name], pools, {
      sampleSize: scenarios[name].maxVerifySample ?? 48,
      seed: 99,
    });
    expect(result.failures, app?.output()).toEqual([]);
    expect(result.ok).toBe(true);
  });
});

describe("baselines authorize callers as the implementations do", () => {
  const database = BASELINES.filter((b) => b.baselineFor === "database").map((b) => b.name);
  const now = () => Math.floor(Date.now() / 1000);
  it.each(database)(
    "%s: 401 for a missing, unsigned, foreign or expired token; 403 and 404 for a customer",
    async (name) => {
      const url = running.get(name)?.url as string;
      const [customer = "", other = ""] = pools.userIds;
      const send = async (path: string, authorization?: string, init: RequestInit = {}) => {
        const headers: Record<string, string> = authorization ? { authorization } : {};
        if (init.body) headers["content-type"] = "application/json";
        const res = await fetch(`${url}${path}`, { ...init, headers });
        const body = (await res.json()) as { type?: string; role?: string; data?: Array<{ userId: string }> };
        return { status: res.status, challenge: res.headers.get("www-authenticate"), body };
      };
      const self = `/users/${customer}`;
      expect(await send(self)).toMatchObject({ status: 401, challenge: "Bearer" });
      const refused = [
        `Bearer ${forgeToken(jwtSecret, customer, { alg: "none" })}`,
        `Bearer ${forgeToken(jwtSecret, customer, { alg: "HS512" })}`,
        `Bearer ${forgeToken("another-secret-of-at-least-32-bytes", customer)}`,
        `Bearer ${forgeToken(jwtSecret, customer, { issuedAt: now() - 7200, expiresAt: now() - 3600 })}`,
        bearerFor(jwtSecret, MISSING_ID),
      ];
      for (const authorization of refused) {
        const answer = await send(self, authorization);
        expect(answer, authorization).toMatchObject({ status: 401, challenge: 'Bearer error="invalid_token"' });
        expect(answer.body.type).toBe("/problems/unauthorized");
      }
      const asCustomer = bearerFor(jwtSecret, customer);
      expect((await send(self, asCustomer)).body.role).toBe("customer");
      // Another user's row is a 404, as one that does not exist; an admin's route is a 403 before its body is read.
      expect((await send(`/users/${other}`, asCustomer)).status).toBe(404);
      const product = { name: "X", priceCents: 1, stock: 1 };
      expect(await send("/products", asCustomer, { method: "POST", body: JSON.stringify(product) })).toMatchObject({
        status: 403,
        challenge: 'Bearer error="insufficient_scope"',
      });
      expect((await send("/products", asCustomer, { method: "POST", body: "{" })).status).toBe(403);
      // A customer's list holds their own orders only; the admin reaches any user.
      const mine = await send("/orders?limit=100", asCustomer);
      expect(mine.status).toBe(200);
      for (const order of mine.body.data ?? []) expect(order.userId).toBe(customer);
      expect((await send(`/users/${other}`, bearerFor(jwtSecret, fixtureUsers.admin.id))).status).toBe(200);
    },
  );
});

describe("baselines read lists by page or by cursor as the contract says", () => {
  const database = BASELINES.filter((b) => b.baselineFor === "database").map((b) => b.name);
  const ANSWER_KEYS = ["data", "page", "limit", "total", "pages", "nextCursor"];
  const reader = (name: string) => async (path: string) => {
    const authorization = bearerFor(jwtSecret, fixtureUsers.admin.id);
    const res = await fetch(`${running.get(name)?.url}${path}`, { headers: { authorization } });
    return { status: res.status, text: await res.text() };
  };
  const count = async (name: string, sql: string) => {
    const client = new pg.Client({ connectionString: databases.get(name) });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>(sql)).rows[0]?.n);
    } finally {
      await client.end();
    }
  };

  it.each(database)(
    "%s: in every sort, the pages a cursor walks are the numbered pages, byte for byte",
    async (name) => {
      const get = reader(name);
      for (const sort of PRODUCT_SORTS) {
        let cursor: string | undefined;
        for (let page = 1; page <= 3; page++) {
          const numbered = await get(`/products?sort=${sort}&limit=7&page=${page}`);
          const answer = JSON.parse(numbered.text) as { nextCursor: string | null };
          expect(Object.keys(answer), sort).toEqual(ANSWER_KEYS);
          const walked = await get(`/products?sort=${sort}&limit=7${cursor ? `&cursor=${cursor}` : ""}`);
          expect(walked.text, `${sort} page ${page}`).toBe(JSON.stringify({ ...answer, page: cursor ? null : page }));
          expect(answer.nextCursor).not.toBeNull();
          cursor = answer.nextCursor ?? undefined;
        }
      }
    },
  );

  it.each(database)("%s: a walk to the end reads every row once, and total=true counts them", async (name) => {
    const get = reader(name);
    const [customer = ""] = pools.userIds;
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const { text } = await get(`/orders?userId=${customer}&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      const page = JSON.parse(text) as { data: Array<{ id: string }>; nextCursor: string | null };
      ids.push(...page.data.map((o) => o.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const all = JSON.parse((await get(`/orders?userId=${customer}&limit=100&total=true`)).text) as Page<{ id: string }>;
    expect(ids).toEqual(all.data.map((o) => o.id));
    expect(all).toMatchObject({ total: ids.length, pages: 1, nextCursor: null });
    const users = JSON.parse((await get("/users?limit=7&total=true")).text) as Page<unknown>;
    const seeded = await count(name, "SELECT count(*) AS n FROM users");
    expect(users).toMatchObject({ page: 1, total: seeded, pages: Math.ceil(seeded / 7) });
    const next = (JSON.parse((await get("/products?inStock=true&limit=7")).text) as Page<unknown>).nextCursor;
    const inStock = JSON.parse((await get(`/products?inStock=true&total=true&cursor=${next}`)).text) as Page<unknown>;
    const stocked = await count(name, "SELECT count(*) AS n FROM products WHERE stock > 0");
    expect(inStock).toMatchObject({ page: null, limit: 20, total: stocked, pages: Math.ceil(stocked / 20) });
  });

  it.each(database)("%s: a cursor beside a page, or one it did not give, is the contract's 400", async (name) => {
    const get = reader(name);
    const first = JSON.parse((await get("/orders?limit=3")).text) as Page<unknown>;
    const cursor = first.nextCursor as string;
    const unsigned = Buffer.from(JSON.stringify(["-createdAt", "yesterday", randomUUID()])).toString("base64url");
    const refused: Array<[string, z.ZodType]> = [
      [`/orders?cursor=${cursor}&page=2`, ListOrdersQuery],
      ["/orders?cursor=not*base64", ListOrdersQuery],
      [`/orders?cursor=${unsigned}`, ListOrdersQuery],
      [`/orders?cursor=${cursor}=`, ListOrdersQuery],
      [`/products?sort=priceCents&cursor=${cursor}`, ListProductsQuery],
      ["/users?total=yes", ListUsersQuery],
    ];
    for (const [path, schema] of refused) {
      const answer = await get(path);
      const parsed = schema.safeParse(Object.fromEntries(new URL(path, "http://x").searchParams));
      expect(parsed.success, path).toBe(false);
      const errors = parsed.success ? [] : fieldErrors(parsed.error, "query");
      expect(answer.status, path).toBe(400);
      const { type, title } = PROBLEMS.validation;
      expect(JSON.parse(answer.text), path).toMatchObject({ type, title, status: 400, errors });
    }
  });
});
