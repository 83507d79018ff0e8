// A bound on every statement (DB_STATEMENT_TIMEOUT_MS, docs/api.md "Errors"): every implementation, started for
// this file on its own copy of the seed with a short timeout, answers 503 unavailable when a statement waits past it
// (here on a lock this file holds on `products`), writes nothing half-way, and serves on once the lock is gone.
import { randomBytes } from "node:crypto";
import { fixtureProducts, fixtureUsers } from "@api-ref/db/fixtures";
import { type PostgresServer, provisionPostgres } from "@api-ref/db/provision";
import { bearerFor, implementations, launch, NEEDS, type RunningImplementation } from "@api-ref/harness";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem, expectStatus } from "./support/http-asserts.ts";
import { contract, http, targets } from "./targets.ts";

/** Short, so that a statement held by the lock reaches it at once; long enough for an unhindered one. */
const TIMEOUT_MS = 500;

// Implementations this run started (and so built); none in URL mode, where the server's timeout is its own.
const started = implementations.filter((i) => contract.adminUrl !== null && targets.some((t) => t.name === i.name));

let server: PostgresServer | undefined;
const running: RunningImplementation[] = [];

afterAll(async () => {
  await Promise.allSettled(running.map((r) => r.stop()));
  await server?.stop();
});

/** Holds an ACCESS EXCLUSIVE lock on `table` (every statement that reads or writes it waits) until `release()`. */
async function lockTable(databaseUrl: string, table: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query("BEGIN");
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return {
    async release() {
      await client.query("ROLLBACK");
      await client.end();
    },
  };
}

describe.each(targets)("$name", (target) => {
  const impl = started.find((i) => i.name === target.name);
  if (!impl) {
    it(`answers 503 when a statement runs past DB_STATEMENT_TIMEOUT_MS`, (ctx) => ctx.skip(NEEDS.ownInstances));
    return;
  }

  let app: RunningImplementation;
  let databaseUrl: string;
  beforeAll(async () => {
    const { adminUrl, template } = contract;
    if (!adminUrl || !template) throw new Error("the statement-timeout checks need the suite's database server");
    server ??= await provisionPostgres({ env: { PG_PROVIDER: "env", DATABASE_URL: adminUrl }, log() {} });
    const name = `stmt_timeout_${impl.name.toLowerCase().replace(/[^a-z0-9]/g, "_")}_${randomBytes(3).toString("hex")}`;
    databaseUrl = await server.createDatabase(name.slice(0, 63), { template });
    app = await launch(impl, {
      databaseUrl,
      jwtSecret: contract.jwtSecret,
      env: { DB_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    running.push(app);
  });

  const buyer = () => bearerFor(contract.jwtSecret, fixtureUsers.buyer.id);
  const product = fixtureProducts.unordered;

  it("answers a read that waits past the timeout with 503 unavailable, and the same read afterwards with 200", async () => {
    const lock = await lockTable(databaseUrl, "products");
    try {
      expectProblem(await http(app).get(`/products/${product.id}`).set("authorization", buyer()), "unavailable");
    } finally {
      await lock.release();
    }
    const res = await http(app).get(`/products/${product.id}`).set("authorization", buyer());
    expectStatus(res, 200);
    expect(res.body.stock).toBe(product.stock);
  });

  it("answers an order that waits past the timeout with 503, and leaves no order and no stock taken", async () => {
    const before = await http(app).get("/orders?limit=1&total=true").set("authorization", buyer());
    expectStatus(before, 200);
    const lock = await lockTable(databaseUrl, "products");
    try {
      const res = await http(app)
        .post("/orders")
        .set("authorization", buyer())
        .send({ productId: product.id, quantity: 1 });
      expectProblem(res, "unavailable");
    } finally {
      await lock.release();
    }
    const after = await http(app).get("/orders?limit=1&total=true").set("authorization", buyer());
    expectStatus(after, 200);
    expect(after.body.total, "the buyer's orders").toBe(before.body.total);
    const stock = await http(app).get(`/products/${product.id}`).set("authorization", buyer());
    expect(stock.body.stock).toBe(product.stock);
    expectStatus(await http(app).get("/ready"), 200);
  });
});
