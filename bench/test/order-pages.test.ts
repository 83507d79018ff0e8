// orders-cursor-walk and orders-deep-page: which pages they read, and that their verification holds a server to the
// seeded orders page by page: a fake server over an in-memory list (as the database would hold it, ties in createdAt
// included) passes, and servers that skip or repeat a row at a cursor, count unasked, or miss their OFFSET by a row
// fail. Then the walk under load (autocannon, and the fixed-rate generator): on every connection each page is read
// with the cursor the page before answered.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeCursor, encodeCursor } from "@api-ref/contract";
import { fixtureUsers } from "@api-ref/db/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFixedRate } from "../src/load/fixed-rate.ts";
import { LoadGenerator } from "../src/load/generator.ts";
import { createRng, type Pools, scenarios } from "../src/scenarios/catalog.ts";
import {
  DEEP_PAGES,
  deepSpans,
  entryStarts,
  nextCursorOf,
  type OrderKey,
  orderPagesFrom,
  PAGE_LIMIT,
  positionsNeeded,
  WALK_ENTRIES,
  WALK_PAGES,
  walkSpans,
} from "../src/scenarios/order-pages.ts";
import { verifyScenario } from "../src/verify.ts";

describe("which pages", () => {
  it("a walk reads WALK_PAGES pages, a short one at the end, then starts over at the first", () => {
    expect(walkSpans(0, 1000).map((s) => s.from)).toEqual([0, 20, 40, 60, 80, 100, 120, 140]);
    expect(walkSpans(930, 1000)).toEqual([
      { from: 930, to: 950, more: true },
      { from: 950, to: 970, more: true },
      { from: 970, to: 990, more: true },
      { from: 990, to: 1000, more: false },
      { from: 0, to: 20, more: true },
      { from: 20, to: 40, more: true },
      { from: 40, to: 60, more: true },
      { from: 60, to: 80, more: true },
    ]);
    // a list that ends on a full page: that page has no next
    expect(walkSpans(960, 1000).slice(1, 3)).toEqual([
      { from: 980, to: 1000, more: false },
      { from: 0, to: 20, more: true },
    ]);
  });

  it("entries: the first page, 3½ pages before the end, then spread over the whole list", () => {
    const starts = entryStarts(10_000);
    expect(starts).toHaveLength(WALK_ENTRIES);
    expect(starts.slice(0, 2)).toEqual([0, 9_930]);
    const spread = starts.slice(2);
    expect(spread.every((s, i) => i === 0 || s > (spread[i - 1] as number))).toBe(true);
    expect(spread[0]).toBeLessThan(200);
    expect(spread.at(-1)).toBeGreaterThan(9_800);
    expect(entryStarts(50).slice(0, 2)).toEqual([0, 0]);
  });

  it("deep pages: the last ten, numbered, the last one short", () => {
    const spans = deepSpans(10_007);
    expect(spans).toHaveLength(DEEP_PAGES);
    expect(spans[0]).toEqual({ page: 492, from: 9_820, to: 9_840, more: true });
    expect(spans.at(-1)).toEqual({ page: 501, from: 10_000, to: 10_007, more: false });
    expect(deepSpans(30).map((s) => s.page)).toEqual([1, 2]);
    expect(deepSpans(0)).toEqual([]);
  });

  it("reads only the rows the references need", () => {
    const positions = positionsNeeded(1_000_000);
    expect(positions.length).toBeLessThan(WALK_ENTRIES * (WALK_PAGES * PAGE_LIMIT + 1) + DEEP_PAGES * PAGE_LIMIT + 1);
    expect(positions).toContain(999_999);
    expect(positions).toContain(0);
  });

  it("reads nextCursor from an answer's end, compact or spaced, and null as none", () => {
    const cursor = encodeCursor("-createdAt", { key: "2026-01-01T00:00:00.000Z", id: randomUUID() });
    expect(nextCursorOf(`{"data":[],"page":null,"nextCursor":"${cursor}"}`)).toBe(cursor);
    expect(nextCursorOf(`{"data": [], "nextCursor": "${cursor}" }\n`)).toBe(cursor);
    expect(nextCursorOf('{"data":[],"nextCursor":null}')).toBeUndefined();
    expect(nextCursorOf('{"type":"/problems/internal"}')).toBeUndefined();
  });
});

// ---- a fake server over an in-memory list ---------------------------------------------------------------------

const STAMP = Date.parse("2026-11-01T00:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();
const customer = { id: randomUUID(), email: "c@example.com", name: "C", role: "customer" };
const product = { id: randomUUID(), name: "Oak lamp", description: null, priceCents: 1200, stock: 9 };

/** 237 orders, three to a createdAt (so that a cursor must break ties by id), newest first as the list reads them. */
const ORDERS = Array.from({ length: 237 }, (_, i) => ({
  id: randomUUID(),
  createdAt: iso(STAMP - Math.floor(i / 3) * 1000),
}))
  .sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? -1 : 1))
  .map(({ id, createdAt }) => ({
    id,
    userId: customer.id,
    productId: product.id,
    quantity: 1,
    unitPriceCents: 1200,
    totalCents: 1200,
    status: "pending",
    createdAt,
    updatedAt: createdAt,
  }));

/** The references as runner/database.ts builds them from the database: from the rows at the positions needed. */
function poolsOver(orders: typeof ORDERS): Pools {
  const rows = new Map<number, OrderKey>(positionsNeeded(orders.length).map((p) => [p, orders[p] as OrderKey]));
  return {
    userIds: [customer.id],
    productIds: [product.id],
    orderIds: orders.map((o) => o.id),
    logins: [],
    password: "pw",
    orderProductIds: [product.id],
    jwtSecret: "x".repeat(32),
    orderPages: orderPagesFrom(orders.length, rows),
  };
}

type Behaviour = "correct" | "skips-ties" | "repeats-row" | "counts" | "offset-off-by-one";

/** Where the page after a cursor starts: the correct row, or one that skips the cursor's ties or repeats it. */
function startAfter(orders: typeof ORDERS, cursor: string, behaviour: Behaviour): number {
  const after = decodeCursor(cursor, "-createdAt");
  if (!after) return -1;
  const position = orders.findIndex((o) => o.createdAt < after.key || (o.createdAt === after.key && o.id > after.id));
  const start = position === -1 ? orders.length : position;
  if (behaviour === "skips-ties") return orders.findIndex((o) => o.createdAt < after.key);
  return behaviour === "repeats-row" ? start - 1 : start;
}

/** A request's log entry: its socket, and the cursor it carried. */
interface Seen {
  socket: number;
  cursor: string | undefined;
}

function ordersServer(behaviour: Behaviour, orders = ORDERS, seen: Seen[] = []) {
  const sockets = new WeakMap<object, number>();
  let opened = 0;
  return http.createServer((req, res) => {
    if (!sockets.has(req.socket)) sockets.set(req.socket, opened++);
    const url = new URL(req.url ?? "/", "http://fake");
    const limit = Number(url.searchParams.get("limit") ?? 20);
    const cursor = url.searchParams.get("cursor") ?? undefined;
    const page = cursor ? null : Number(url.searchParams.get("page") ?? 1);
    seen.push({ socket: sockets.get(req.socket) as number, cursor });
    const skip = behaviour === "offset-off-by-one" ? 1 : 0;
    const start = page === null ? startAfter(orders, cursor as string, behaviour) : (page - 1) * limit + skip;
    if (start < 0) {
      res.writeHead(400, { "content-type": "application/problem+json", "x-request-id": randomUUID() });
      return res.end("{}");
    }
    const rows = orders.slice(start, start + limit + 1);
    const data = rows.slice(0, limit).map((o) => ({
      ...o,
      user: { ...customer, createdAt: iso(STAMP), updatedAt: iso(STAMP) },
      product: { ...product, createdAt: iso(STAMP), updatedAt: iso(STAMP) },
    }));
    const last = data.at(-1);
    const more = rows.length > limit && last;
    const counted = behaviour === "counts" ? orders.length : null;
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "x-request-id": randomUUID() });
    res.end(
      JSON.stringify({
        data,
        page,
        limit,
        total: counted,
        pages: counted === null ? null : Math.ceil(counted / limit),
        nextCursor: more ? encodeCursor("-createdAt", { key: last.createdAt, id: last.id }) : null,
      }),
    );
  });
}

async function listen(server: http.Server) {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("verification against the seeded pages", () => {
  const pools = poolsOver(ORDERS);
  const options = { sampleSize: 24, seed: 5 };
  const servers: http.Server[] = [];
  const start = async (behaviour: Behaviour, seen?: Seen[]) => {
    const server = ordersServer(behaviour, ORDERS, seen);
    servers.push(server);
    return listen(server);
  };
  afterAll(() => {
    for (const server of servers) server.close();
  });

  it("passes a correct server: three walks of eight pages (the first page, through the end, one deep in)", async () => {
    const seen: Seen[] = [];
    const walk = await verifyScenario(await start("correct", seen), scenarios["orders-cursor-walk"], pools, options);
    expect(walk).toMatchObject({ ok: true, checked: 3 * WALK_PAGES, failed: 0 });
    const entries = pools.orderPages.walkEntries;
    expect(seen.map((s) => s.cursor)[0]).toBeUndefined();
    expect(seen[WALK_PAGES]?.cursor).toBe(entries[1]?.cursor);
    // the second walk reached the end and started over at the first page
    expect(seen.slice(WALK_PAGES, 2 * WALK_PAGES).filter((s) => s.cursor === undefined)).toHaveLength(1);
    expect(seen[2 * WALK_PAGES]?.cursor).toBe(entries[2]?.cursor);
    const deep = await verifyScenario(await start("correct"), scenarios["orders-deep-page"], pools, options);
    expect(deep).toMatchObject({ ok: true, checked: 24, failed: 0 });
  });

  it("fails a server that skips the rows tied with the cursor's, or repeats its row", async () => {
    const skips = await verifyScenario(await start("skips-ties"), scenarios["orders-cursor-walk"], pools, options);
    expect(skips.ok).toBe(false);
    expect(skips.failures[0]?.problem).toMatch(/^not the seeded page from order /);
    const repeats = await verifyScenario(await start("repeats-row"), scenarios["orders-cursor-walk"], pools, options);
    expect(repeats.ok).toBe(false);
    expect(repeats.failures[0]?.problem).toMatch(/^not the seeded page from order /);
  });

  it("fails a count nobody asked for, and an OFFSET a row off", async () => {
    const counts = await verifyScenario(await start("counts"), scenarios["orders-deep-page"], pools, options);
    expect(counts.failures[0]?.problem).toBe("total and pages are not null, though total=true was not asked");
    const off = await verifyScenario(await start("offset-off-by-one"), scenarios["orders-deep-page"], pools, options);
    expect(off.ok).toBe(false);
    expect(off.failures[0]?.problem).toMatch(/^not the seeded page from order /);
  });

  it("both are the admin's, reading every order", () => {
    const plan = scenarios["orders-deep-page"].plan(pools, createRng(1));
    const walk = scenarios["orders-cursor-walk"].plan(pools, createRng(1));
    if (plan.kind !== "pool" || walk.kind !== "sequence") throw new Error("a pool and a sequence");
    const sub = (authorization = "") =>
      (JSON.parse(Buffer.from(authorization.split(".")[1] ?? "", "base64url").toString()) as { sub: string }).sub;
    expect(sub(plan.requests[0]?.headers?.authorization)).toBe(fixtureUsers.admin.id);
    expect(sub(walk.steps[0]?.build({}, createRng(1)).headers?.authorization)).toBe(fixtureUsers.admin.id);
    expect(new Set(plan.requests.map((r) => new URL(r.path, "http://x").searchParams.get("page")))).toEqual(
      new Set(["3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]),
    );
  });
});

describe("the walk under load", () => {
  const pools = poolsOver(ORDERS);
  const entryCursors = new Set(pools.orderPages.walkEntries.map((e) => e.cursor ?? undefined));
  let loadGenerator: LoadGenerator;
  beforeAll(() => {
    loadGenerator = new LoadGenerator(undefined);
  });
  afterAll(() => loadGenerator.close());

  /** The nextCursor of the page read with `cursor` (the first page without one), as the list answers it. */
  function nextAfter(cursor: string | undefined) {
    const start = cursor === undefined ? 0 : startAfter(ORDERS, cursor, "correct");
    const last = ORDERS[start + PAGE_LIMIT - 1];
    const more = start + PAGE_LIMIT < ORDERS.length && last;
    return more ? encodeCursor("-createdAt", { key: last.createdAt, id: last.id }) : undefined;
  }

  /** Requests on one connection out of the walk's order: each WALK_PAGES-th starts at an entry, the rest continue. */
  function outOfOrder(seen: Seen[]) {
    const bySocket = Map.groupBy(seen, (s) => s.socket);
    let broken = 0;
    for (const requests of bySocket.values()) {
      requests.forEach((request, i) => {
        const entering = i % WALK_PAGES === 0;
        const continues = !entering && request.cursor === nextAfter(requests[i - 1]?.cursor);
        if (entering ? !entryCursors.has(request.cursor) : !continues) broken++;
      });
    }
    return { broken, connections: bySocket.size };
  }

  it("autocannon: on every connection, each page continues the one before", async () => {
    const seen: Seen[] = [];
    const server = ordersServer("correct", ORDERS, seen);
    const url = await listen(server);
    try {
      const { outcome } = await loadGenerator.run({
        url,
        scenario: "orders-cursor-walk",
        pools,
        seed: 9,
        connections: 4,
        pipelining: 1,
        warmupS: 0,
        durationS: 0.5,
        timeoutS: 5,
      });
      expect(outcome.non2xx).toBe(0);
      const { broken, connections } = outOfOrder(seen);
      // the four connections, and the request that waits out what the run left queued (on a connection of its own)
      expect(connections).toBe(5);
      expect(seen.length).toBeGreaterThan(4 * WALK_PAGES);
      expect(broken).toBe(0);
    } finally {
      server.close();
    }
  });

  it("fixed rate: the same walk, its last step still in its own cycle", async () => {
    const seen: Seen[] = [];
    const server = ordersServer("correct", ORDERS, seen);
    const url = await listen(server);
    try {
      const plan = scenarios["orders-cursor-walk"].plan(pools, createRng(9));
      const outcome = await runFixedRate({
        url,
        rate: 200,
        connections: 1,
        durationS: 0.5,
        plan,
        rng: createRng(10),
        timeoutS: 5,
      });
      expect(outcome.non2xx).toBe(0);
      const { broken } = outOfOrder(seen);
      expect(seen.length).toBeGreaterThan(2 * WALK_PAGES);
      expect(broken).toBe(0);
    } finally {
      server.close();
    }
  });
});
