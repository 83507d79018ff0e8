// Every route's success path, over real HTTP: status, headers, and a body the contract's own schemas accept,
// checked against what the target's database holds at the same moment.
import { FIXTURE_TIME, fixtureOrders, fixtureProducts, fixtureUsers, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { forgeToken, implementations } from "@api-ref/harness";
import { decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  EchoResponse,
  Health,
  LoginResponse,
  ORDER_STATUSES,
  Order,
  OrderList,
  type openApiDocument,
  PRODUCT_SORTS,
  Product,
  ProductList,
  Ready,
  RegisterResponse,
  routes,
  User,
  UserList,
} from "../src/index.ts";
import {
  type Customer,
  checkContext,
  createCustomer,
  createOrder,
  createProduct,
  createUser,
  expectIncluded,
  expectJson,
  expectPageOf,
  expectStatus,
  iso,
  JSON_CONTENT_TYPE,
  PRODUCT_COLUMNS,
  productJson,
  rawRequest,
  secretKey,
  stockOf,
  USER_COLUMNS,
  UUID_PATTERN,
  unique,
  uniqueEmail,
  userJson,
} from "./support/http-asserts.ts";
import * as cases from "./support/route-cases.ts";
import { bearerOf, contract, describeEachTarget } from "./targets.ts";

describeEachTarget((target) => {
  const { api, anon, as, db, itDb, itSecret } = checkContext(target);
  /** DELETE /<resource>/:id answers 204 with no body; then GET answers 404 and the row is gone from the table. */
  const expectDeleted = async (resource: "users" | "products", id: string) => {
    const res = await api().delete(`/${resource}/${id}`);
    expectStatus(res, 204);
    expect(res.text ?? "").toBe("");
    expectStatus(await api().get(`/${resource}/${id}`), 404);
    if (target.databaseUrl) expect(await db(`SELECT id FROM ${resource} WHERE id = $1`, [id])).toEqual([]);
  };
  /** Every user or product in `items` is as its table holds it (read back by id). */
  const expectAsInTable = async (resource: "users" | "products", items: Array<User | Product>) => {
    const [columns, toJson]: [string, (row: Record<string, unknown>) => unknown] =
      resource === "users" ? [USER_COLUMNS, userJson] : [PRODUCT_COLUMNS, productJson];
    const rows = await db(`SELECT ${columns} FROM ${resource} WHERE id = ANY($1::uuid[])`, [items.map((i) => i.id)]);
    const byId = new Map(rows.map((row) => [row.id, toJson(row)]));
    for (const item of items) expect(item).toEqual(byId.get(item.id));
  };
  /** GET /<resource>/:id answers `row`, and so does the table, when the run can read it. */
  const expectStored = async (resource: "users" | "products", row: User | Product) => {
    expect(expectJson(await api().get(`/${resource}/${row.id}`), 200, resource === "users" ? User : Product)).toEqual(
      row,
    );
    if (target.databaseUrl) await expectAsInTable(resource, [row]);
  };
  /** The page of 100 (in the list order `all`) where the largest group of rows sharing one createdAt begins. */
  const pageOfTie = async (table: "products" | "orders", all: string[]) => {
    const [tie] = await db<{ ids: string[] }>(
      `SELECT array_agg(id::text ORDER BY id) AS ids FROM ${table} GROUP BY created_at HAVING count(*) > 2
       ORDER BY count(*) DESC, created_at DESC LIMIT 1`,
    );
    const tied = tie?.ids ?? [];
    expect(tied.length, `the seed has ${table} sharing a createdAt`).toBeGreaterThan(2);
    return Math.floor(all.indexOf(tied[0] as string) / 100) + 1;
  };
  const ids = async (text: string, params: unknown[] = []) =>
    (await db<{ id: string }>(text, params)).map((row) => row.id);

  describe("request ids", () => {
    it.each(cases.VALID_REQUEST_IDS)("echoes a valid x-request-id (%s)", async (_, id) => {
      const res = await api().get("/health").set("x-request-id", id);
      expectStatus(res, 200);
      expect(res.headers["x-request-id"]).toBe(id);
    });

    it.each(cases.INVALID_REQUEST_IDS)("replaces an invalid x-request-id with a fresh UUID (%s)", async (_, id) => {
      const res = await api().get("/health").set("x-request-id", id);
      expectStatus(res, 200);
      expect(res.headers["x-request-id"]).toMatch(UUID_PATTERN);
    });

    it("gives every request without an x-request-id its own UUID", async () => {
      const [a, b] = await Promise.all([api().get("/health"), api().get("/health")]);
      expect(a.headers["x-request-id"]).toMatch(UUID_PATTERN);
      expect(b.headers["x-request-id"]).toMatch(UUID_PATTERN);
      expect(a.headers["x-request-id"]).not.toBe(b.headers["x-request-id"]);
    });

    it("echoes the request id on error responses too", async () => {
      const res = await api().get("/no-such-route").set("x-request-id", "trace-404");
      expectStatus(res, 404);
      expect(res.headers["x-request-id"]).toBe("trace-404");
    });
  });

  describe("meta routes", () => {
    it("GET / answers Hello World! as plain text", async () => {
      const res = await api().get("/");
      expectStatus(res, 200);
      expect(res.headers["content-type"]).toMatch(/^text\/plain/);
      expect(res.text).toBe("Hello World!");
    });

    it.each(["/", "/health", "/ready", "/users?limit=1", `/users/${fixtureUsers.buyer.id}`, "/orders?include=user"])(
      "HEAD %s answers 200 with the GET headers and no body",
      async (path) => {
        const get = await api().get(path);
        expectStatus(get, 200);
        const head = await rawRequest(target, "HEAD", path, { authorization: bearerOf(target, "admin") });
        expect(head.status).toBe(200);
        expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
        expect(head.headers["x-request-id"]).toBeTruthy();
        expect(head.body.length).toBe(0);
      },
    );

    it("GET /health reports ok, the time in epoch milliseconds and the framework", async () => {
      const before = Date.now();
      const body = expectJson(await api().get("/health"), 200, Health);
      // Epoch milliseconds, not seconds: within a day of the test's own clock.
      expect(Math.abs(body.timestamp - before)).toBeLessThan(86_400_000);
      const framework = implementations.find((impl) => impl.name === target.name)?.framework;
      if (framework) expect(body.framework).toBe(framework);
      else expect(body.framework.length).toBeGreaterThan(0);
    });

    it("GET /ready reports ok while the database is up", async () => {
      expect(expectJson(await api().get("/ready"), 200, Ready)).toEqual({ status: "ok" });
    });

    it("POST /echo returns a nested object of a few kB exactly, plus a UUID v4 txnId", async () => {
      const payload = {
        text: 'héllo wörld ✓ 😀 "quoted" \\ back\nslash',
        integer: 42,
        negative: -7,
        fraction: 3.25,
        yes: true,
        no: false,
        nothing: null,
        emptyObject: {},
        emptyArray: [],
        mixed: [1, "two", { three: 3 }, [4, [5]], null],
        nested: { a: { b: { c: { d: { e: "deep" } } } } },
        items: Array.from({ length: 40 }, (_, i) => ({ i, name: `item ${i}`, tags: ["x", "y"], price: i * 100 })),
        blob: "x".repeat(1500),
      };
      expect(JSON.stringify(payload).length).toBeGreaterThan(3000);
      const body = expectJson(await api().post("/echo").send(payload), 200, EchoResponse);
      const { txnId, ...rest } = body;
      expect(rest).toEqual(payload);
      const again = expectJson(await api().post("/echo").send(payload), 200, EchoResponse);
      expect(again.txnId).not.toBe(txnId);
    });

    it.each(cases.JSON_MEDIA_TYPES)("POST /echo accepts a body sent as %s", async (type) => {
      const res = await api().post("/echo").set("content-type", type).send('{"a":[1,{"b":null}]}');
      const body = expectJson(res, 200, EchoResponse);
      expect(body).toEqual({ a: [1, { b: null }], txnId: body.txnId });
    });

    it("GET /metrics counts requests by route template, never by raw path", async () => {
      const sample = (text: string) =>
        text
          .split("\n")
          .filter(
            (line) =>
              line.startsWith("http_requests_total{") &&
              line.includes('route="/users/:id"') &&
              line.includes('method="GET"') &&
              line.includes('status="200"'),
          )
          .reduce((sum, line) => sum + Number(line.trim().split(/\s+/).at(-1)), 0);
      const before = await api().get("/metrics");
      expectStatus(before, 200);
      for (let i = 0; i < 3; i++) expectStatus(await api().get(`/users/${fixtureUsers.buyer.id}`), 200);
      expectStatus(await api().get("/no-such-route-for-metrics"), 404);

      const res = await api().get("/metrics");
      expectStatus(res, 200);
      expect(res.headers["content-type"]).toMatch(/^text\/plain/);
      expect(res.text).toContain("http_requests_total{");
      expect(sample(res.text) - sample(before.text)).toBe(3);
      expect(res.text).toMatch(/^http_request_duration_seconds_bucket\{[^}]*route="\/users\/:id"/m);
      expect(res.text).toMatch(/^http_requests_total\{[^}]*route="unmatched"[^}]*\}/m);
      expect(res.text).not.toContain(fixtureUsers.buyer.id);
      expect(res.text).not.toContain("no-such-route-for-metrics");
    });

    it("GET /openapi.json is an OpenAPI 3.1 document with every route and method", async () => {
      const res = await api().get("/openapi.json");
      expectStatus(res, 200);
      expect(res.headers["content-type"]).toBe(JSON_CONTENT_TYPE);
      const doc = res.body as typeof openApiDocument;
      expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
      const served = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
      const expected = routes.map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
      expect(served.sort()).toEqual(expect.arrayContaining(expected.sort()));
      for (const route of routes) {
        const op = (doc.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>)[
          route.path.replace(/:(\w+)/g, "{$1}")
        ]?.[route.method.toLowerCase()];
        expect(op?.responses?.[String(route.success.status)], `${route.method} ${route.path}`).toBeDefined();
      }
      // Each create links to the operations on what it created (Schemathesis's stateful phase follows them).
      const created = (doc.paths as Record<string, Record<string, { responses: Record<string, { links?: object }> }>>)[
        "/orders"
      ]?.post?.responses["201"]?.links;
      expect(created).toEqual({
        getOrder: expect.objectContaining({ operationId: "getOrder", parameters: { id: "$response.body#/id" } }),
        updateOrder: expect.objectContaining({ operationId: "updateOrder", parameters: { id: "$response.body#/id" } }),
        deleteOrder: expect.objectContaining({ operationId: "deleteOrder", parameters: { id: "$response.body#/id" } }),
      });
    });

    it("GET /docs is an HTML page that renders /openapi.json", async () => {
      const res = await api().get("/docs");
      expectStatus(res, 200);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.text).toMatch(/<html/i);
      expect(res.text).toContain("/openapi.json");
    });
  });

  describe("users", () => {
    itDb("POST /users creates a user: 201, location, e-mail lower-cased, name trimmed", async () => {
      const email = uniqueEmail("Mixed.Case");
      const res = await api().post("/users").send({ email, name: "  Grace   Hopper  " });
      const user = expectJson(res, 201, User);
      expect(res.headers.location).toBe(`/users/${user.id}`);
      expect(user).toMatchObject({ email: email.toLowerCase(), name: "Grace   Hopper", role: "customer" });
      expect(user.id).toMatch(UUID_PATTERN);
      const rows = await db(`SELECT ${USER_COLUMNS}, password_hash FROM users WHERE id = $1`, [user.id]);
      expect(rows.map(userJson)).toEqual([user]);
      expect(rows[0]?.password_hash).toBeNull();
    });

    it("accepts the longest e-mail (254) and name (100 characters)", async () => {
      const tag = unique("long");
      const email = `${tag}${"a".repeat(242 - tag.length)}@example.com`;
      expect(email.length).toBe(254);
      const user = await createUser(target, { email, name: "n".repeat(100) });
      expect(user).toMatchObject({ email, name: "n".repeat(100) });
    });

    it("GET /users/:id returns a seeded user, without any password hash", async () => {
      const user = expectJson(await api().get(`/users/${fixtureUsers.buyer.id}`), 200, User);
      expect(user).toEqual({ ...fixtureUsers.buyer, createdAt: FIXTURE_TIME, updatedAt: FIXTURE_TIME });
    });

    it("GET /users/:id returns a created user as it was created", async () => {
      const created = await createUser(target);
      expect(expectJson(await api().get(`/users/${created.id}`), 200, User)).toEqual(created);
    });

    it("PATCH /users/:id changes only the fields it is given", async () => {
      const created = await createUser(target, { name: "Before" });
      const renamed = expectJson(await api().patch(`/users/${created.id}`).send({ name: "  After  " }), 200, User);
      expect(renamed).toMatchObject({
        id: created.id,
        email: created.email,
        name: "After",
        createdAt: created.createdAt,
      });
      expect(Date.parse(renamed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

      const email = uniqueEmail("NEW");
      const moved = expectJson(await api().patch(`/users/${created.id}`).send({ email }), 200, User);
      expect(moved).toMatchObject({ id: created.id, email: email.toLowerCase(), name: "After" });
      await expectStored("users", moved);
    });

    it("PATCH /users/:id to the user's own current e-mail is not a conflict", async () => {
      const created = await createUser(target);
      const res = await api().patch(`/users/${created.id}`).send({ email: created.email.toUpperCase(), name: "Same" });
      expect(expectJson(res, 200, User)).toMatchObject({ email: created.email, name: "Same" });
    });

    it("DELETE /users/:id answers 204 with no body, then the user is gone", async () => {
      const created = await createUser(target);
      await expectDeleted("users", created.id);
    });
  });

  describe("products", () => {
    it("POST /products creates a product: 201, location, description null when absent", async () => {
      const name = unique("  Spaced Lamp  ");
      const res = await api().post("/products").send({ name, priceCents: 1999, stock: 7 });
      const product = expectJson(res, 201, Product);
      expect(res.headers.location).toBe(`/products/${product.id}`);
      expect(product).toMatchObject({ name, description: null, priceCents: 1999, stock: 7 });
      await expectStored("products", product);
    });

    it.each(cases.PRODUCT_EDGE_BODIES)("POST /products accepts %s", async (_, fields) => {
      const product = await createProduct(target, fields);
      expect(product).toMatchObject(fields);
      expect(expectJson(await api().get(`/products/${product.id}`), 200, Product)).toEqual(product);
    });

    it("GET /products/:id returns a seeded product", async () => {
      const product = expectJson(await api().get(`/products/${fixtureProducts.ordered.id}`), 200, Product);
      expect(product).toMatchObject({ ...fixtureProducts.ordered, stock: product.stock, createdAt: FIXTURE_TIME });
    });

    it("PATCH /products/:id changes only the fields it is given", async () => {
      const created = await createProduct(target, { description: "Original", priceCents: 500, stock: 5 });
      const repriced = expectJson(await api().patch(`/products/${created.id}`).send({ priceCents: 750 }), 200, Product);
      expect(repriced).toMatchObject({ ...created, priceCents: 750, updatedAt: repriced.updatedAt });
      expect(Date.parse(repriced.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

      const res = await api().patch(`/products/${created.id}`).send({ description: null, stock: 9, name: "Renamed" });
      const changed = expectJson(res, 200, Product);
      expect(changed).toMatchObject({ id: created.id, name: "Renamed", description: null, priceCents: 750, stock: 9 });
      await expectStored("products", changed);
    });

    it("DELETE /products/:id answers 204 with no body, then the product is gone", async () => {
      const created = await createProduct(target);
      await expectDeleted("products", created.id);
    });
  });

  describe("GET /users", () => {
    itDb("defaults to page 1 of 20, newest first, with no total unless asked", async () => {
      const all = await ids(`SELECT id FROM users ${cases.NEWEST_FIRST}`);
      const body = expectJson(await api().get("/users"), 200, UserList);
      expectPageOf(body, all, 1, 20);
      await expectAsInTable("users", body.data);
    });

    itDb("pages with page and limit", async () => {
      const all = await ids(`SELECT id FROM users ${cases.NEWEST_FIRST}`);
      expectPageOf(expectJson(await api().get("/users?page=3&limit=7"), 200, UserList), all, 3, 7);
      expectPageOf(expectJson(await api().get("/users?limit=100&page=2&total=true"), 200, UserList), all, 2, 100, {
        counted: true,
      });
      expectPageOf(expectJson(await api().get("/users?total=false"), 200, UserList), all, 1, 20);
    });

    itDb("answers an empty page with the true total past the end", async () => {
      const [{ count }] = (await db<{ count: string }>("SELECT count(*) FROM users")) as [{ count: string }];
      const pages = Math.ceil(Number(count) / 50);
      for (const page of [pages + 1, 1_000_000]) {
        const body = expectJson(await api().get(`/users?limit=50&page=${page}&total=true`), 200, UserList);
        expect(body).toEqual({ data: [], page, limit: 50, total: Number(count), pages, nextCursor: null });
      }
    });

    itDb("breaks createdAt ties by id ascending", async () => {
      const all = await ids(`SELECT id FROM users ${cases.NEWEST_FIRST}`);
      const [tie] = await db<{ ids: string[] }>(
        `SELECT array_agg(id::text ORDER BY id) AS ids FROM users GROUP BY created_at HAVING count(*) > 1
         ORDER BY count(*) DESC, created_at DESC LIMIT 1`,
      );
      expect(tie, "the seed has users sharing a createdAt").toBeDefined();
      const tied = tie?.ids ?? [];
      // A page that holds the whole tied group: how many users came before it depends on what other checks
      // created first, and with limit 100 alone the group could straddle two pages and show one of its rows.
      const first = all.indexOf(tied[0] as string);
      const limit =
        Array.from({ length: 100 }, (_, i) => 100 - i).find(
          (l) => Math.floor(first / l) === Math.floor((first + tied.length - 1) / l),
        ) ?? 100;
      const page = Math.floor(first / limit) + 1;
      const body = expectJson(await api().get(`/users?limit=${limit}&page=${page}`), 200, UserList);
      expectPageOf(body, all, page, limit);
      const shown = body.data.map((u) => u.id).filter((id) => tied.includes(id));
      expect(shown).toEqual(tied);
    });

    itDb.each(cases.USER_SEARCHES)("filters with q on %s", async (_, q) => {
      const all = await ids(
        `SELECT id FROM users WHERE strpos(lower(name), lower($1)) > 0 OR strpos(lower(email), lower($1)) > 0 ${cases.NEWEST_FIRST}`,
        [q],
      );
      expect(all.length).toBeGreaterThan(0);
      const body = expectJson(await api().get("/users").query({ q, limit: 100 }), 200, UserList);
      expectPageOf(body, all, 1, 100);
    });

    itDb("matches % and _ in q literally, not as wildcards", async () => {
      const percent = await createUser(target, { name: `100% Full ${unique("pct")}` });
      const underscore = await createUser(target, { email: uniqueEmail("under_score") });
      for (const [q, mine] of [
        ["%", percent],
        ["_", underscore],
        ["0% f", percent],
      ] as const) {
        const all = await ids(
          `SELECT id FROM users WHERE strpos(lower(name), lower($1)) > 0 OR strpos(lower(email), lower($1)) > 0 ${cases.NEWEST_FIRST}`,
          [q],
        );
        expect(all).toContain(mine.id);
        const body = expectJson(await api().get("/users").query({ q, limit: 100 }), 200, UserList);
        expectPageOf(body, all, 1, 100);
      }
    });
  });

  describe("GET /products", () => {
    const select = cases.productIdsSql;

    itDb("defaults to page 1 of 20, newest first, with no total unless asked", async () => {
      const all = await ids(select(""));
      const body = expectJson(await api().get("/products"), 200, ProductList);
      expectPageOf(body, all, 1, 20);
      await expectAsInTable("products", body.data);
    });

    itDb.each(PRODUCT_SORTS)("sorts by %s, ties broken by id ascending", async (sort) => {
      const all = await ids(select("", sort));
      expectPageOf(expectJson(await api().get(`/products?sort=${sort}&limit=100`), 200, ProductList), all, 1, 100);
      expectPageOf(
        expectJson(await api().get(`/products?sort=${sort}&limit=100&page=7&total=true`), 200, ProductList),
        all,
        7,
        100,
        { counted: true },
      );
    });

    itDb("breaks createdAt ties by id ascending", async () => {
      const all = await ids(select(""));
      const page = await pageOfTie("products", all);
      const body = expectJson(await api().get(`/products?limit=100&page=${page}`), 200, ProductList);
      expectPageOf(body, all, page, 100);
    });

    itDb("filters with q on the name, case-insensitively", async () => {
      const all = await ids(select("strpos(lower(name), lower($1)) > 0"), ["oAK cHAIR"]);
      expect(all.length).toBeGreaterThan(0);
      expectPageOf(expectJson(await api().get("/products?q=oAK%20cHAIR&limit=100"), 200, ProductList), all, 1, 100);
    });

    itDb("matches % and _ in q literally", async () => {
      const mine = await createProduct(target, { name: unique("Discount 50%_off") });
      for (const q of ["%", "_", "50%_"]) {
        const all = await ids(select("strpos(lower(name), lower($1)) > 0"), [q]);
        expect(all).toContain(mine.id);
        expectPageOf(expectJson(await api().get("/products").query({ q, limit: 100 }), 200, ProductList), all, 1, 100);
      }
    });

    itDb("filters by a price range, bounds included", async () => {
      const all = await ids(select("price_cents BETWEEN 999 AND 1999", "priceCents"));
      const body = expectJson(
        await api().get("/products?minPriceCents=999&maxPriceCents=1999&sort=priceCents&limit=100"),
        200,
        ProductList,
      );
      expectPageOf(body, all, 1, 100);
      expect(body.data[0]?.priceCents).toBe(999);
      const top = expectJson(
        await api().get("/products?minPriceCents=999&maxPriceCents=1999&sort=-priceCents&limit=1"),
        200,
        ProductList,
      );
      expect(top.data[0]?.priceCents).toBe(1999);
    });

    itDb.each(cases.PRODUCT_FILTERS)("filters by %s", async (_, query, where) => {
      const all = await ids(select(where));
      expect(all.length).toBeGreaterThan(0);
      expectPageOf(expectJson(await api().get(`/products?${query}&limit=100`), 200, ProductList), all, 1, 100);
    });

    itDb("combines every filter with a sort", async () => {
      const where = "strpos(lower(name), 'steel') > 0 AND price_cents BETWEEN 1000 AND 60000 AND stock > 0";
      const all = await ids(select(where, "-priceCents"));
      expect(all.length).toBeGreaterThan(20);
      const body = expectJson(
        await api().get(
          "/products?q=Steel&minPriceCents=1000&maxPriceCents=60000&inStock=true&sort=-priceCents&page=2&limit=10&total=true",
        ),
        200,
        ProductList,
      );
      expectPageOf(body, all, 2, 10, { counted: true });
    });
  });

  describe("GET /orders", () => {
    const select = cases.orderIdsSql;
    const busiest = async (column: "user_id" | "product_id") =>
      (
        (await db<{ id: string }>(
          `SELECT ${column} AS id FROM orders GROUP BY ${column} ORDER BY count(*) DESC, ${column} LIMIT 1`,
        )) as [{ id: string }]
      )[0].id;

    itDb("defaults to page 1 of 20, newest first, with no total and nothing embedded", async () => {
      const all = await ids(select());
      const body = expectJson(await api().get("/orders"), 200, OrderList);
      expectPageOf(body, all, 1, 20);
      await expectIncluded(target, body.data, { user: false, product: false });
      const rows = await db(
        `SELECT id, user_id, product_id, quantity, unit_price_cents, total_cents, status::text, created_at, updated_at
         FROM orders WHERE id = ANY($1::uuid[])`,
        [body.data.map((o) => o.id)],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const order of body.data) {
        const row = byId.get(order.id);
        expect(order).toEqual({
          id: row?.id,
          userId: row?.user_id,
          productId: row?.product_id,
          quantity: row?.quantity,
          unitPriceCents: row?.unit_price_cents,
          totalCents: Number(row?.total_cents), // BIGINT: node-postgres returns it as a string
          status: row?.status,
          createdAt: iso(row?.created_at),
          updatedAt: iso(row?.updated_at),
        });
      }
    });

    itDb("pages past the end with an empty page and the true total", async () => {
      const all = await ids(select());
      const page = Math.ceil(all.length / 100) + 1;
      const body = expectJson(await api().get(`/orders?limit=100&page=${page}&total=true`), 200, OrderList);
      expectPageOf(body, all, page, 100, { counted: true });
    });

    itDb.each(ORDER_STATUSES)("filters by status=%s", async (status) => {
      const all = await ids(select("status = $1"), [status]);
      expect(all.length).toBeGreaterThan(0);
      expectPageOf(expectJson(await api().get(`/orders?status=${status}&limit=100`), 200, OrderList), all, 1, 100);
    });

    itDb("filters by userId", async () => {
      const userId = await busiest("user_id");
      const all = await ids(select("user_id = $1"), [userId]);
      expect(all.length).toBeGreaterThan(1);
      expectPageOf(expectJson(await api().get(`/orders?userId=${userId}&limit=5`), 200, OrderList), all, 1, 5);
    });

    itDb("filters by productId", async () => {
      const productId = await busiest("product_id");
      const all = await ids(select("product_id = $1"), [productId]);
      expect(all.length).toBeGreaterThan(1);
      expectPageOf(expectJson(await api().get(`/orders?productId=${productId}`), 200, OrderList), all, 1, 20);
    });

    itDb("combines status, userId and productId", async () => {
      const where = "status = 'pending' AND user_id = $1 AND product_id = $2";
      const params = [fixtureUsers.buyer.id, fixtureProducts.ordered.id];
      const all = await ids(select(where), params);
      expect(all).toContain(fixtureOrders.pending.id);
      const query = `status=pending&userId=${params[0]}&productId=${params[1]}&total=true`;
      expectPageOf(expectJson(await api().get(`/orders?${query}`), 200, OrderList), all, 1, 20, { counted: true });
    });

    itDb("breaks createdAt ties by id ascending", async () => {
      const all = await ids(select());
      const page = await pageOfTie("orders", all);
      expectPageOf(expectJson(await api().get(`/orders?limit=100&page=${page}`), 200, OrderList), all, page, 100);
    });

    itDb.each(cases.ORDER_LIST_INCLUDES)("embeds what include=%s asks for", async (include, expected) => {
      const all = await ids(select("status = 'shipped'"));
      const body = expectJson(await api().get(`/orders?status=shipped&include=${include}&limit=50`), 200, OrderList);
      expectPageOf(body, all, 1, 50);
      await expectIncluded(target, body.data, expected);
    });

    it.each(cases.ORDER_INCLUDES)("GET /orders/:id%s embeds exactly what it asks for", async (query, expected) => {
      const order = expectJson(await api().get(`/orders/${fixtureOrders.delivered.id}${query}`), 200, Order);
      expect(order).toMatchObject({
        id: fixtureOrders.delivered.id,
        userId: fixtureUsers.buyer.id,
        productId: fixtureProducts.ordered.id,
        quantity: fixtureOrders.delivered.quantity,
        unitPriceCents: fixtureProducts.ordered.priceCents,
        totalCents: fixtureProducts.ordered.priceCents * fixtureOrders.delivered.quantity,
        status: "delivered",
      });
      await expectIncluded(target, [order], expected);
    });
  });

  describe("orders", () => {
    /** A customer of these checks' own: the user of every order they place. */
    let buyer: Customer;

    beforeAll(async () => {
      buyer = await createCustomer(target, { name: "Order Routes Buyer" });
    });

    it("POST /orders places an order: 201, location, the product's price, stock taken", async () => {
      const product = await createProduct(target, { priceCents: 1234, stock: 50 });
      const res = await as(buyer).post("/orders").send({ productId: product.id, quantity: 3 });
      const order = expectJson(res, 201, Order);
      expect(res.headers.location).toBe(`/orders/${order.id}`);
      expect(order).toMatchObject({
        userId: buyer.id,
        productId: product.id,
        quantity: 3,
        unitPriceCents: 1234,
        totalCents: 3702,
        status: "pending",
      });
      expect("user" in order || "product" in order).toBe(false);
      expect(await stockOf(target, product.id)).toBe(47);
      expect(expectJson(await api().get(`/orders/${order.id}`), 200, Order)).toEqual(order);
    });

    it("keeps the price an order was placed at when the product's price changes", async () => {
      const product = await createProduct(target, { priceCents: 999, stock: 10 });
      const order = await createOrder(target, buyer, { productId: product.id, quantity: 2 });
      expectJson(await api().patch(`/products/${product.id}`).send({ priceCents: 5000 }), 200, Product);
      const again = expectJson(await api().get(`/orders/${order.id}`), 200, Order);
      expect(again).toMatchObject({ unitPriceCents: 999, totalCents: 1998 });
    });

    it("an order may take exactly the stock that is left", async () => {
      const product = await createProduct(target, { priceCents: 250, stock: 7 });
      const order = await createOrder(target, buyer, { productId: product.id, quantity: 7 });
      expect(order).toMatchObject({ quantity: 7, totalCents: 1750 });
      expect(await stockOf(target, product.id)).toBe(0);
    });

    it("an order of the most items (100) at the highest price (100000000) is placed", async () => {
      const product = await createProduct(target, { priceCents: 100_000_000, stock: 100 });
      const order = await createOrder(target, buyer, { productId: product.id, quantity: 100 });
      expect(order).toMatchObject({ quantity: 100, unitPriceCents: 100_000_000, totalCents: 10_000_000_000 });
      expect(await stockOf(target, product.id)).toBe(0);
    });

    it("PATCH /orders/:id ships then delivers a pending order, stock untouched", async () => {
      const product = await createProduct(target, { stock: 20 });
      const order = await createOrder(target, buyer, { productId: product.id, quantity: 4 });
      const shipped = expectJson(await api().patch(`/orders/${order.id}`).send({ status: "shipped" }), 200, Order);
      expect(shipped).toEqual({ ...order, status: "shipped", updatedAt: shipped.updatedAt });
      const delivered = expectJson(await api().patch(`/orders/${order.id}`).send({ status: "delivered" }), 200, Order);
      expect(delivered).toEqual({ ...order, status: "delivered", updatedAt: delivered.updatedAt });
      expect(Date.parse(delivered.updatedAt)).toBeGreaterThanOrEqual(Date.parse(order.updatedAt));
      expect(await stockOf(target, product.id)).toBe(16);
      expect(expectJson(await api().get(`/orders/${order.id}`), 200, Order)).toEqual(delivered);
      if (target.databaseUrl) {
        const [row] = await db("SELECT status::text FROM orders WHERE id = $1", [order.id]);
        expect(row?.status).toBe("delivered");
      }
    });

    it("cancelling a pending order puts its quantity back in stock", async () => {
      const product = await createProduct(target, { stock: 20 });
      const order = await createOrder(target, buyer, { productId: product.id, quantity: 6 });
      expect(await stockOf(target, product.id)).toBe(14);
      const cancelled = expectJson(await api().patch(`/orders/${order.id}`).send({ status: "cancelled" }), 200, Order);
      expect(cancelled).toMatchObject({ id: order.id, status: "cancelled", quantity: 6 });
      expect(await stockOf(target, product.id)).toBe(20);
    });

    it("DELETE /orders/:id of a pending order answers 204 and puts its quantity back in stock", async () => {
      const product = await createProduct(target, { stock: 20 });
      const order = await createOrder(target, buyer, { productId: product.id, quantity: 5 });
      const res = await api().delete(`/orders/${order.id}`);
      expectStatus(res, 204);
      expect(res.text ?? "").toBe("");
      expect(await stockOf(target, product.id)).toBe(20);
      expectStatus(await api().get(`/orders/${order.id}`), 404);
      if (target.databaseUrl) expect(await db("SELECT id FROM orders WHERE id = $1", [order.id])).toEqual([]);
    });

    it.each(cases.STOCK_KEEPING_DELETES)(
      "DELETE /orders/:id of a %s order leaves the stock as it is",
      async (_, path, stockAfter) => {
        const product = await createProduct(target, { stock: 20 });
        const order = await createOrder(target, buyer, { productId: product.id, quantity: 5 });
        for (const status of path) {
          expectJson(await api().patch(`/orders/${order.id}`).send({ status }), 200, Order);
        }
        expectStatus(await api().delete(`/orders/${order.id}`), 204);
        expect(await stockOf(target, product.id)).toBe(stockAfter);
        expectStatus(await api().get(`/orders/${order.id}`), 404);
      },
    );

    it("a user and a product can be deleted once their orders are", async () => {
      const user = await createCustomer(target);
      const product = await createProduct(target);
      const order = await createOrder(target, user, { productId: product.id, quantity: 1 });
      expectStatus(await api().delete(`/orders/${order.id}`), 204);
      expectStatus(await api().delete(`/users/${user.id}`), 204);
      expectStatus(await api().delete(`/products/${product.id}`), 204);
    });
  });

  describe("auth", () => {
    /**
     * The token is an HS256 JWT for the user, valid for one hour. Its signature is checked when the run knows the
     * secret (always, but for URL mode without one: then the token checks that need it are skipped and counted).
     */
    async function expectTokenFor(token: string, userId: string) {
      const { payload, protectedHeader } = contract.jwtSecret
        ? await jwtVerify(token, secretKey(contract.jwtSecret), { algorithms: ["HS256"] })
        : { payload: decodeJwt(token), protectedHeader: decodeProtectedHeader(token) };
      expect(protectedHeader.alg).toBe("HS256");
      expect(payload.sub).toBe(userId);
      expect(payload.exp).toBeGreaterThan(Date.now() / 1000);
      if (payload.iat !== undefined) expect((payload.exp ?? 0) - payload.iat).toBe(3600);
    }
    const me = (token: string) => anon().get("/auth/me").set("authorization", `Bearer ${token}`);

    itDb("POST /auth/register creates a user with an scrypt hash and returns a working token", async () => {
      const email = uniqueEmail("Register.Me");
      const res = await anon().post("/auth/register").send({ email, name: " Registered ", password: "correct horse" });
      const body = expectJson(res, 201, RegisterResponse);
      expect(body.user).toMatchObject({ email: email.toLowerCase(), name: "Registered", role: "customer" });
      await expectTokenFor(body.token, body.user.id);
      const [row] = await db(`SELECT ${USER_COLUMNS}, password_hash FROM users WHERE id = $1`, [body.user.id]);
      expect(userJson(row ?? {})).toEqual(body.user);
      expect(row?.password_hash).toMatch(/^scrypt\$16384\$8\$5\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{86}==$/);
      expect(expectJson(await me(body.token), 200, User)).toEqual(body.user);
    });

    it("accepts passwords of 8 and of 128 characters, and logs in with them", async () => {
      for (const password of ["p".repeat(8), "é".repeat(128)]) {
        const email = uniqueEmail("pw");
        const reg = await anon().post("/auth/register").send({ email, name: "Password Bounds", password });
        expectJson(reg, 201, RegisterResponse);
        expectJson(await anon().post("/auth/login").send({ email, password }), 200, LoginResponse);
      }
    });

    it("POST /auth/login gives a registered user a Bearer token for an hour", async () => {
      const email = uniqueEmail("login");
      const reg = expectJson(
        await anon().post("/auth/register").send({ email, name: "Login", password: "s3cret-pass" }),
        201,
        RegisterResponse,
      );
      const body = expectJson(
        await anon().post("/auth/login").send({ email, password: "s3cret-pass" }),
        200,
        LoginResponse,
      );
      expect(body).toEqual({ token: body.token, tokenType: "Bearer", expiresIn: 3600 });
      await expectTokenFor(body.token, reg.user.id);
      expect(expectJson(await me(body.token), 200, User)).toEqual(reg.user);
    });

    it.each([
      ["its e-mail", fixtureUsers.buyer.email],
      ["its e-mail in upper case", fixtureUsers.buyer.email.toUpperCase()],
    ])("a seeded user logs in with the seed password and %s", async (_, email) => {
      const body = expectJson(
        await anon().post("/auth/login").send({ email, password: SEED_PASSWORD }),
        200,
        LoginResponse,
      );
      await expectTokenFor(body.token, fixtureUsers.buyer.id);
      const user = expectJson(await me(body.token), 200, User);
      expect(user).toEqual({ ...fixtureUsers.buyer, createdAt: FIXTURE_TIME, updatedAt: FIXTURE_TIME });
    });

    itSecret("GET /auth/me accepts a token another implementation could have issued", async () => {
      const token = forgeToken(contract.jwtSecret, fixtureUsers.buyer.id);
      const user = expectJson(await me(token), 200, User);
      expect(user).toEqual({ ...fixtureUsers.buyer, createdAt: FIXTURE_TIME, updatedAt: FIXTURE_TIME });
    });
  });
});
