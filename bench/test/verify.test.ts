// A server that answers wrongly must make the scenario fail verification and never be measured.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { encodeCursor } from "@api-ref/contract";
import { fixtureUsers } from "@api-ref/db/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarise } from "../src/analysis/summary.ts";
import { LoadGenerator } from "../src/load/generator.ts";
import { Progress } from "../src/progress.ts";
import { type LiveTarget, runScenario } from "../src/run.ts";
import { type BenchRequest, createRng, type Pools, scenarios } from "../src/scenarios/catalog.ts";
import { NO_ORDER_PAGES } from "../src/scenarios/order-pages.ts";
import { ordersRequest } from "../src/scenarios/requests.ts";
import { responseProblem, verifyScenario } from "../src/verify.ts";

const pools: Pools = {
  userIds: Array.from({ length: 20 }, () => randomUUID()),
  productIds: Array.from({ length: 20 }, () => randomUUID()),
  orderIds: Array.from({ length: 20 }, () => randomUUID()),
  logins: [{ id: randomUUID(), email: "a@example.com" }],
  password: "pw",
  orderProductIds: Array.from({ length: 5 }, () => randomUUID()),
  jwtSecret: "x".repeat(32),
  orderPages: NO_ORDER_PAGES,
};

type Behaviour = "correct" | "wrong-shape" | "error-500" | "canned";
const NOW = "2025-01-01T00:00:00.000Z";

function fakeServer(behaviour: Behaviour) {
  const cannedId = randomUUID();
  return http.createServer((req, res) => {
    res.setHeader("x-request-id", randomUUID());
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(body));
    };
    if (behaviour === "error-500")
      return json(500, { type: "/problems/internal", title: "Internal server error", status: 500, detail: "x" });
    if (req.url === "/health") {
      return behaviour === "wrong-shape"
        ? json(200, { status: "ok", time: Date.now() })
        : json(200, { status: "ok", timestamp: Date.now(), framework: "fake" });
    }
    const user = /^\/users\/([0-9a-f-]+)$/.exec(req.url ?? "");
    if (user) {
      const id = behaviour === "canned" ? cannedId : user[1];
      return json(200, { id, email: "x@example.com", name: "X", role: "customer", createdAt: NOW, updatedAt: NOW });
    }
    json(404, {});
  });
}

const servers = new Map<Behaviour, { server: http.Server; url: string }>();
beforeAll(async () => {
  for (const behaviour of ["correct", "wrong-shape", "error-500", "canned"] as const) {
    const server = fakeServer(behaviour);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.set(behaviour, { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  }
});
afterAll(() => {
  for (const { server } of servers.values()) server.close();
});
const url = (b: Behaviour) => servers.get(b)?.url as string;

describe("response checks", () => {
  const plan = scenarios["user-by-id"].plan(pools, createRng(1));
  if (plan.kind !== "pool" || !plan.requests[0]) throw new Error("user-by-id is a pool of requests");
  const req = plan.requests[0];
  const id = req.path.split("/").pop();
  const headers = new Headers({ "content-type": "application/json", "x-request-id": "r1" });
  const user = { id, email: "x@example.com", name: "X", role: "customer", createdAt: NOW, updatedAt: NOW };

  it("accepts the contract's answer", () => {
    expect(responseProblem(req, 200, headers, JSON.stringify(user))).toBeUndefined();
  });
  it("refuses another status, a missing request id, another shape, or another row", () => {
    expect(responseProblem(req, 500, headers, "{}")).toMatch(/^status 500, expected 200/);
    expect(responseProblem(req, 200, new Headers({ "content-type": "application/json" }), JSON.stringify(user))).toBe(
      "no x-request-id header",
    );
    expect(responseProblem(req, 200, headers, JSON.stringify({ ...user, createdAt: "yesterday" }))).toMatch(
      /contract schema: createdAt/,
    );
    expect(responseProblem(req, 200, headers, JSON.stringify({ ...user, password: "x" }))).toMatch(/contract schema/);
    expect(responseProblem(req, 200, headers, JSON.stringify({ ...user, id: randomUUID() }))).toMatch(/^id is/);
  });
});

describe("list checks: the contract's page", () => {
  const req = ordersRequest({ page: 3, limit: 2, include: "user,product" });
  const headers = new Headers({ "content-type": "application/json", "x-request-id": "r1" });
  const person = {
    id: randomUUID(),
    email: "x@example.com",
    name: "X",
    role: "customer",
    createdAt: NOW,
    updatedAt: NOW,
  };
  const item = {
    id: randomUUID(),
    name: "P",
    description: null,
    priceCents: 1,
    stock: 1,
    createdAt: NOW,
    updatedAt: NOW,
  };
  const order = (id: string) => ({
    id,
    userId: person.id,
    productId: item.id,
    quantity: 1,
    unitPriceCents: 1,
    totalCents: 1,
    status: "pending",
    createdAt: NOW,
    updatedAt: NOW,
    user: person,
    product: item,
  });
  const [a, b] = [randomUUID(), randomUUID()].sort();
  const data = [order(a as string), order(b as string)];
  const next = encodeCursor("-createdAt", { key: NOW, id: b as string });
  const answer = (fields: object) =>
    JSON.stringify({ data, page: 3, limit: 2, total: null, pages: null, nextCursor: next, ...fields });

  it("accepts a full page whose nextCursor names its last row, and the last page without one", () => {
    expect(responseProblem(req, 200, headers, answer({}))).toBeUndefined();
    expect(responseProblem(req, 200, headers, answer({ nextCursor: null }))).toBeUndefined();
  });
  it("refuses a count nobody asked for, a cursor after a short page, or one naming another row", () => {
    expect(responseProblem(req, 200, headers, answer({ total: 40, pages: 20 }))).toMatch(/total=true was not asked/);
    expect(responseProblem(req, 200, headers, answer({ data: data.slice(0, 1) }))).toMatch(/none follows/);
    const other = encodeCursor("-createdAt", { key: NOW, id: a as string });
    expect(responseProblem(req, 200, headers, answer({ nextCursor: other }))).toMatch(/does not name the page's last/);
    expect(responseProblem(req, 200, headers, answer({ page: null }))).toBe("page is null, expected 3");
  });
});

describe("who sends each scenario's requests", () => {
  const subOf = (req: BenchRequest) => {
    const token = /^Bearer (.+)$/.exec(req.headers?.authorization ?? "")?.[1] ?? "";
    return (JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { sub: string }).sub;
  };
  const requestsOf = (name: keyof typeof scenarios) => {
    const plan = scenarios[name].plan(pools, createRng(3));
    if (plan.kind !== "pool") throw new Error(`${name} is a pool of requests`);
    return plan.requests;
  };

  it("a customer reads themself, and places orders of their own (no userId in the body)", () => {
    for (const req of requestsOf("user-by-id")) expect(subOf(req)).toBe(req.path.split("/").pop());
    for (const req of requestsOf("order-create")) {
      expect(pools.userIds).toContain(subOf(req));
      expect(Object.keys(JSON.parse(req.body ?? "{}"))).toEqual(["productId", "quantity"]);
    }
  });

  it("the admin pages through every order; product reads go without a token", () => {
    for (const req of requestsOf("orders-list")) expect(subOf(req)).toBe(fixtureUsers.admin.id);
    for (const req of [...requestsOf("product-by-id"), ...requestsOf("products-list")])
      expect(req.headers?.authorization).toBeUndefined();
  });
});

describe("verification against fake servers", () => {
  const options = { sampleSize: 8, seed: 42 };

  it("passes a correct server", async () => {
    const v = await verifyScenario(url("correct"), scenarios.health, pools, options);
    expect(v).toMatchObject({ ok: true, failed: 0 });
    expect(v.checked).toBeGreaterThan(0);
  });

  it("fails a server answering the wrong shape, or 500", async () => {
    const wrong = await verifyScenario(url("wrong-shape"), scenarios.health, pools, options);
    expect(wrong.ok).toBe(false);
    expect(wrong.failures[0]?.problem).toMatch(/does not match the contract schema/);
    const broken = await verifyScenario(url("error-500"), scenarios.health, pools, options);
    expect(broken.ok).toBe(false);
    expect(broken.failures[0]?.problem).toMatch(/^status 500, expected 200/);
  });

  it("fails a server that answers every id with the same row", async () => {
    const canned = await verifyScenario(url("canned"), scenarios["user-by-id"], pools, options);
    expect(canned.ok).toBe(false);
    expect(canned.failures[0]?.problem).toMatch(/^id is ".*", expected /);
    expect((await verifyScenario(url("correct"), scenarios["user-by-id"], pools, options)).ok).toBe(true);
  });

  it("a scenario that fails verification is reported failed and never measured", async () => {
    const live = (name: Behaviour): LiveTarget => ({
      name,
      url: url(name),
      process: { pid: process.pid, exitCode: null, signalCode: null },
    });
    const logs: string[] = [];
    const loadGenerator = new LoadGenerator(undefined);
    const { verification, cells } = await runScenario(
      "health",
      [live("correct"), live("wrong-shape"), live("error-500")],
      {
        pools,
        seed: 7,
        options: {
          connections: [25],
          repeats: 1,
          maxRepeats: 1,
          precision: 0.05,
          warmupS: 0,
          durationS: 0.5,
          rate: undefined,
          pipelining: 1,
          verifySample: 4,
          smoke: false,
          reruns: 2,
        },
        loadGenerator,
        io: { progress: new Progress(), log: (m) => logs.push(m) },
        counter: { cell: 0, total: 3 },
      },
    );
    expect(verification.map((v) => [v.target, v.ok])).toEqual([
      ["correct", true],
      ["wrong-shape", false],
      ["error-500", false],
    ]);
    // (a run disturbed by other work on the machine is kept but discarded, and run again)
    const counted = cells.filter((c) => !c.discarded);
    expect(counted.map((c) => c.target)).toEqual(["correct"]);
    expect(counted[0]?.failure).toBeUndefined();
    expect(counted[0]?.outcome?.requestsPerSecond).toBeGreaterThan(0);
    expect(logs.join("\n")).toMatch(/health on wrong-shape: verification failed/);

    const rows = summarise(
      [{ name: "health", title: "", kind: "framework", baseline: "correct" }],
      (["correct", "wrong-shape", "error-500"] as const).map((name) => ({
        name,
        role: name === "correct" ? ("baseline" as const) : ("implementation" as const),
        framework: name,
        variant: "",
        language: "typescript",
        versions: {},
      })),
      counted,
      verification,
    );
    expect(rows.map((r) => [r.target, r.status])).toEqual([
      ["correct", "ok"],
      ["wrong-shape", "failed"],
      ["error-500", "failed"],
    ]);
  });
});
