// Every error row of the contract, over real HTTP: status, problem+json content type, an RFC 9457 body with the
// catalogue's exact type and title, and for validation errors the exact set of failing paths.
import { randomBytes } from "node:crypto";
import { fixtureProducts, fixtureUsers, MISSING_ID, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { forgeToken } from "@api-ref/harness";
import { beforeAll, describe, expect, it } from "vitest";
import { allowHeader, EchoResponse, Order, type ProblemKind, type Product } from "../src/index.ts";
import * as cases from "./support/error-cases.ts";
import {
  asResponse,
  base64url,
  type Customer,
  checkContext,
  createCustomer,
  createOrder,
  createProduct,
  createUser,
  expectJson,
  expectProblem,
  expectStatus,
  orderCountOf,
  orderIn,
  pathSet,
  rawRequest,
  stockOf,
  uniqueEmail,
} from "./support/http-asserts.ts";
import { bearerOf, contract, describeEachTarget } from "./targets.ts";

describeEachTarget((target) => {
  const { api, anon, as, db, itSecret } = checkContext(target);
  /** What requests sent over a plain socket carry: the admin's token (they check something else than access). */
  const asAdmin = () => ({ authorization: bearerOf(target, "admin") });
  /** How many users GET /users?q= finds for an e-mail address (the whole address: at most one). */
  const usersWithEmail = async (email: string) => {
    const res = await api().get("/users").query({ q: email, total: true });
    expectStatus(res, 200);
    return res.body.total as number;
  };
  /**
   * A body sent exactly as given, with the given content type, over a plain socket: a server may answer a body it
   * refuses (too large, wrong type) before reading it and close the connection, which a client library can report
   * as a failed write instead of the answer.
   */
  const sendRaw = async (method: "post" | "patch" | "put", path: string, body: string, type = "application/json") =>
    asResponse(
      await rawRequest(target, method.toUpperCase(), path, { "content-type": type, ...asAdmin() }, body),
      method,
      path,
    );

  /** A customer who registered, and owns `order`. */
  let user: Customer;
  let product: Product;
  let order: Order;
  beforeAll(async () => {
    user = await createCustomer(target, { name: "Errors Buyer" });
    product = await createProduct(target, { priceCents: 700, stock: 1000 });
    order = await createOrder(target, user, { productId: product.id, quantity: 1 });
  });

  describe("request bodies that fail validation", () => {
    // Each route that takes a body, with the bodies it must refuse (ids are read when the test runs: beforeAll
    // makes the rows).
    const bodyRoutes: Array<[route: string, method: "post" | "patch", path: () => string, refused: cases.Case[]]> = [
      ["POST /users", "post", () => "/users", cases.userBodies],
      ["PATCH /users/:id", "patch", () => `/users/${user.id}`, cases.userPatches],
      ["POST /products", "post", () => "/products", cases.productBodies],
      ["PATCH /products/:id", "patch", () => `/products/${product.id}`, cases.productPatches],
      ["POST /orders", "post", () => "/orders", cases.orderBodies],
      ["PATCH /orders/:id", "patch", () => `/orders/${order.id}`, cases.orderPatches],
      ["POST /auth/register", "post", () => "/auth/register", cases.registerBodies],
      ["POST /auth/login", "post", () => "/auth/login", cases.loginBodies],
    ];
    for (const [route, method, path, refused] of bodyRoutes)
      it.each(refused)(`${route} refuses %s`, async (_, body, paths) => {
        expectProblem(await api()[method](path()).send(body), "validation", paths);
      });

    it("a refused body changes nothing", async () => {
      const read = async () =>
        target.databaseUrl
          ? await db("SELECT name, email, updated_at FROM users WHERE id = $1", [user.id])
          : (await api().get(`/users/${user.id}`)).body;
      const before = await read();
      expectProblem(await api().patch(`/users/${user.id}`).send({ name: "Changed", role: "admin" }), "validation", [
        "body.role",
      ]);
      expect(await read()).toEqual(before);
      const email = uniqueEmail("refused");
      expectProblem(await api().post("/users").send({ email, name: "X", id: MISSING_ID }), "validation", ["body.id"]);
      if (target.databaseUrl) {
        expect(await db("SELECT id FROM users WHERE email = $1 OR id = $2", [email, MISSING_ID])).toEqual([]);
      } else {
        expect(await usersWithEmail(email)).toBe(0);
        expectProblem(await api().get(`/users/${MISSING_ID}`), "notFound");
      }
    });
  });

  describe("query parameters that fail validation", () => {
    it.each(cases.pagingQueries)("GET /users?%s is a 400", async (query, paths) => {
      expectProblem(await api().get(`/users?${query}`), "validation", paths);
    });

    it.each(cases.userQueries)("GET /users?%s is a 400", async (query, paths) => {
      expectProblem(await api().get(`/users?${query}`), "validation", paths);
    });

    it.each(cases.pagingQueries.slice(0, 4))("GET /products?%s is a 400", async (query, paths) => {
      expectProblem(await api().get(`/products?${query}`), "validation", paths);
    });

    it.each(cases.productQueries)("GET /products?%s is a 400", async (query, paths) => {
      expectProblem(await api().get(`/products?${query}`), "validation", paths);
    });

    it.each(cases.pagingQueries.slice(0, 4))("GET /orders?%s is a 400", async (query, paths) => {
      expectProblem(await api().get(`/orders?${query}`), "validation", paths);
    });

    it.each(cases.orderQueries)("GET /orders?%s is a 400", async (query, paths) => {
      expectProblem(await api().get(`/orders?${query}`), "validation", paths);
    });

    describe.each(["/users", "/products", "/orders"])("%s", (path) => {
      it.each(cases.cursorQueries)(`GET ${path}?%s is a 400`, async (query, paths) => {
        expectProblem(await api().get(`${path}?${query}`), "validation", paths);
      });
    });

    it.each(cases.orderByIdQueries)("GET /orders/:id?%s is a 400", async (query, paths) => {
      expectProblem(await api().get(`/orders/${order.id}?${query}`), "validation", paths);
    });
  });

  describe("path ids", () => {
    const badIds = [
      "not-a-uuid",
      "123",
      "00000000-0000-4000-8000-00000000000",
      "00000000000040008000000000000001",
      `${MISSING_ID}x`,
    ];
    const requests = ["users", "products", "orders"].flatMap((resource) =>
      badIds.flatMap((id) => [
        ["GET", `/${resource}/${id}`, undefined],
        ["DELETE", `/${resource}/${id}`, undefined],
        ["PATCH", `/${resource}/${id}`, resource === "orders" ? { status: "shipped" } : { name: "Valid" }],
      ]),
    ) as Array<[string, string, cases.Body | undefined]>;

    it.each(requests)("%s %s is a 400 on params.id", async (method, path, body) => {
      const req = api()[method.toLowerCase() as "get" | "delete" | "patch"](path);
      expectProblem(await (body ? req.send(body) : req), "validation", ["params.id"]);
    });

    it.each([
      ["the nil UUID", "00000000-0000-0000-0000-000000000000"],
      ["a version-1 UUID", "c232ab00-9414-11ec-b3c8-9f6bdeced846"],
      ["a UUID in upper case", MISSING_ID.toUpperCase().replace("FFFFF", "EEEEE")],
    ])("accepts any 8-4-4-4-12 hex id (%s): an unknown one is a 404", async (_, id) => {
      expectProblem(await api().get(`/users/${id}`), "notFound");
      expectProblem(await api().get(`/products/${id}`), "notFound");
      expectProblem(await api().get(`/orders/${id}`), "notFound");
    });
  });

  describe("paths whose percent-encoding cannot be decoded", () => {
    it.each([
      ["GET", "/users/%zz"],
      ["DELETE", "/products/%E0%A4%A"],
      ["GET", "/orders/%"],
    ])("%s %s is a 400 on params.id, like any other invalid id", async (method, path) => {
      const raw = await rawRequest(target, method, path, asAdmin());
      expect(raw.status).toBe(400);
      expect(raw.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(pathSet(JSON.parse(raw.body.toString()).errors.map((e: { path: string }) => e.path))).toEqual([
        "params.id",
      ]);
    });

    it("PUT /users/%zz is a 405: the method is checked before the path parameter", async () => {
      const raw = await rawRequest(target, "PUT", "/users/%zz");
      expect(raw.status).toBe(405);
      expect(raw.headers.allow).toBe(allowHeader("/users/:id"));
    });

    it("an undecodable path that matches no route is a 404", async () => {
      const raw = await rawRequest(target, "GET", "/%zz");
      expect(raw.status).toBe(404);
      expect(raw.headers["content-type"]).toMatch(/^application\/problem\+json/);
    });
  });

  describe("unknown ids and routes", () => {
    it.each([
      ["GET", "/users", undefined],
      ["PATCH", "/users", { name: "Nobody" }],
      ["DELETE", "/users", undefined],
      ["GET", "/products", undefined],
      ["PATCH", "/products", { stock: 1 }],
      ["DELETE", "/products", undefined],
      ["GET", "/orders", undefined],
      ["PATCH", "/orders", { status: "shipped" }],
      ["DELETE", "/orders", undefined],
    ] as Array<[string, string, cases.Body | undefined]>)(
      "%s %s/:id with an unknown id is a 404",
      async (method, base, body) => {
        const req = api()[method.toLowerCase() as "get" | "patch" | "delete"](`${base}/${MISSING_ID}`);
        expectProblem(await (body ? req.send(body) : req), "notFound");
      },
    );

    it.each([
      ["an unknown path", "/no-such-route"],
      ["a nested unknown path", `/users/${fixtureUsers.buyer.id}/orders`],
      ["a prefixed path", "/api/users"],
      ["a trailing slash on a list", "/users/"],
      ["a trailing slash on /health", "/health/"],
      ["a trailing slash after an id", `/products/${fixtureProducts.ordered.id}/`],
      ["a path in the wrong case", "/Users"],
      ["/health in capitals", "/HEALTH"],
      ["an id route in the wrong case", `/Orders/${MISSING_ID}`],
      ["/auth/me in the wrong case", "/auth/ME"],
    ])("GET on %s is a 404", async (_, path) => {
      expectProblem(await api().get(path), "notFound");
    });

    it("POST to an unknown path with a JSON body is a 404", async () => {
      expectProblem(await api().post("/no-such-route").send({ a: 1 }), "notFound");
      expectProblem(await api().post("/users/").send({ email: uniqueEmail(), name: "Slash" }), "notFound");
    });
  });

  describe("methods a path does not serve", () => {
    it.each([
      ["PUT", "/users", "/users"],
      ["DELETE", "/users", "/users"],
      ["PATCH", "/users", "/users"],
      ["POST", `/users/${fixtureUsers.buyer.id}`, "/users/:id"],
      ["PUT", `/users/${fixtureUsers.buyer.id}`, "/users/:id"],
      ["PUT", "/users/not-a-uuid", "/users/:id"],
      ["POST", `/products/${MISSING_ID}`, "/products/:id"],
      ["DELETE", "/products", "/products"],
      ["PUT", `/orders/${MISSING_ID}`, "/orders/:id"],
      ["DELETE", "/orders", "/orders"],
      ["OPTIONS", "/health", "/health"],
      ["OPTIONS", "/users", "/users"],
      ["OPTIONS", `/orders/${MISSING_ID}`, "/orders/:id"],
      ["PATCH", "/", "/"],
      ["POST", "/health", "/health"],
      ["GET", "/echo", "/echo"],
      ["DELETE", "/metrics", "/metrics"],
      ["POST", "/openapi.json", "/openapi.json"],
      ["PUT", "/docs", "/docs"],
      ["GET", "/auth/login", "/auth/login"],
      ["GET", "/auth/register", "/auth/register"],
      ["POST", "/auth/me", "/auth/me"],
    ])("%s %s is a 405 that allows exactly the served methods", async (method, path, template) => {
      const res = await api()[method.toLowerCase() as "get"](path);
      expectProblem(res, "methodNotAllowed");
      expect(res.headers.allow).toBe(allowHeader(template));
    });

    it.each([
      // QUERY (RFC 10008) takes a body and requires a content type; whatever a framework thinks of a QUERY without
      // one, the path is checked first.
      ["QUERY", "/users", "/users", {}],
      ["QUERY", `/orders/${MISSING_ID}`, "/orders/:id", {}],
      ["QUERY", "/products", "/products", { "content-type": "application/json" }],
      ["PROPFIND", "/users", "/users", {}],
    ] as Array<[string, string, string, Record<string, string>]>)(
      "%s %s (a method no route serves) is a 405 that allows exactly the served methods",
      async (method, path, template, headers) => {
        const res = asResponse(await rawRequest(target, method, path, headers), method, path);
        expectProblem(res, "methodNotAllowed");
        expect(res.headers.allow).toBe(allowHeader(template));
      },
    );

    it.each([
      ["QUERY", "/no-such-route"],
      ["QUERY", "/OPENAPI.JSON"],
      ["PROPFIND", "/no-such-route"],
    ])("%s on the unknown path %s is a 404", async (method, path) => {
      expectProblem(asResponse(await rawRequest(target, method, path), method, path), "notFound");
    });

    it("HEAD on a POST-only route is a 405 with its allow header", async () => {
      const raw = await rawRequest(target, "HEAD", "/echo");
      expect(raw.status).toBe(405);
      expect(raw.headers.allow).toBe(allowHeader("/echo"));
      expect(raw.body.length).toBe(0);
    });
  });

  describe("bodies that are not a JSON object", () => {
    const jsonRoutes: Array<[string, () => string]> = [
      ["POST /users", () => "/users"],
      ["POST /products", () => "/products"],
      ["POST /orders", () => "/orders"],
      ["POST /echo", () => "/echo"],
      ["POST /auth/register", () => "/auth/register"],
      ["POST /auth/login", () => "/auth/login"],
      ["PATCH /users/:id", () => `/users/${user.id}`],
      ["PATCH /orders/:id", () => `/orders/${order.id}`],
    ];
    const methodOf = (label: string) => label.split(" ")[0]?.toLowerCase() as "post" | "patch";

    const malformed = ['{"email":', "{'a':1}", "{a:1}", '{"a":1,}', "undefined", '{"a":1}x'];
    const notObjects = ["[]", '[{"a":1}]', '"text"', "null", "42", "true"];
    const each = (texts: string[]) =>
      jsonRoutes.flatMap(([label, path]) => texts.map((text) => [label, text, path] as [string, string, () => string]));

    it.each(each(malformed))(
      "%s answers the malformed JSON %s with a 400 malformed-json",
      async (label, text, path) => {
        expectProblem(await sendRaw(methodOf(label), path(), text), "malformedJson");
      },
    );

    it.each(each(notObjects))("%s refuses the non-object JSON %s on path body", async (label, text, path) => {
      expectProblem(await sendRaw(methodOf(label), path(), text), "validation", ["body"]);
    });

    it.each(jsonRoutes)("%s refuses an empty JSON body, on path body", async (label, path) => {
      expectProblem(await sendRaw(methodOf(label), path(), ""), "validation", ["body"]);
    });

    it.each(jsonRoutes)("%s refuses a request with no body at all, on path body", async (label, path) => {
      const method = methodOf(label).toUpperCase();
      const raw = await rawRequest(target, method, path(), asAdmin());
      expectProblem(asResponse(raw, method, path()), "validation", ["body"]);
    });
  });

  describe("content types and sizes", () => {
    it.each([
      ["text/plain", "POST", "/users", JSON.stringify({ email: uniqueEmail(), name: "Plain" })],
      ["application/x-www-form-urlencoded", "POST", "/users", "email=a%40example.com&name=Form"],
      ["text/plain", "POST", "/echo", '{"a":1}'],
      ["application/xml", "POST", "/orders", "<order/>"],
      [
        "multipart/form-data; boundary=x",
        "POST",
        "/auth/login",
        '--x\r\ncontent-disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      ],
      ["application/json; charset=latin1", "POST", "/echo", '{"a":1}'],
      ["application/json; charset=utf-16", "POST", "/auth/register", "{}"],
      ["text/json", "PATCH", "/products/:id", '{"stock":1}'],
      ["application/jsonx", "POST", "/echo", '{"a":1}'],
      // A list is not one media type (Fastify cannot parse it; NestJS on Fastify once answered 500).
      ["application/json, text/plain", "POST", "/users", '{"email":"x@example.com"}'],
      ["application/", "POST", "/echo", '{"a":1}'],
    ])("a %s body on %s %s is a 415", async (type, method, path, body) => {
      const url = path.replace(":id", MISSING_ID);
      expectProblem(await sendRaw(method.toLowerCase() as "post", url, body, type), "unsupportedMediaType");
    });

    it.each([
      ["POST /echo", "/echo"],
      ["POST /users", "/users"],
      ["POST /auth/login", "/auth/login"],
    ])("%s refuses a body of 1 MiB and one byte with a 413", async (_, path) => {
      expectProblem(await sendRaw("post", path, cases.jsonOfSize(cases.MiB + 1)), "payloadTooLarge");
    });

    it("accepts a JSON body of exactly 1 MiB", async () => {
      const text = cases.jsonOfSize(cases.MiB);
      expect(Buffer.byteLength(text)).toBe(cases.MiB);
      const res = await sendRaw("post", "/echo", text);
      const body = expectJson(res, 200, EchoResponse);
      expect((body.filler as string).length).toBe(cases.MiB - '{"filler":""}'.length);
      // On a validating route the same size reaches validation instead of being a 413.
      expectProblem(await sendRaw("post", "/users", text), "validation", ["body.filler", "body.email", "body.name"]);
    });

    it.each([
      ["the method before the content type", "put", "/users", "text/plain", "x", "methodNotAllowed"],
      [
        "the content type before the size",
        "post",
        "/echo",
        "text/plain",
        cases.jsonOfSize(cases.MiB + 1),
        "unsupportedMediaType",
      ],
      [
        "the size before the JSON syntax",
        "post",
        "/echo",
        "application/json",
        `${cases.jsonOfSize(cases.MiB + 1)}{`,
        "payloadTooLarge",
      ],
      ["the content type before the path id", "patch", "/users/not-a-uuid", "text/plain", "{}", "unsupportedMediaType"],
      ["the JSON syntax before the path id", "patch", "/users/not-a-uuid", "application/json", "{", "malformedJson"],
    ] as Array<[string, "put" | "post" | "patch", string, string, string, ProblemKind]>)(
      "checks %s",
      async (_, method, path, type, body, kind) => {
        expectProblem(await sendRaw(method, path, body, type), kind);
      },
    );

    it("a bad path id with a valid body is a 400 on params.id alone", async () => {
      const res = await sendRaw("patch", "/users/not-a-uuid", '{"name":"Fine"}');
      expectProblem(res, "validation", ["params.id"]);
    });

    // When several parts fail, only the first in the order params, headers, query, body is reported, whatever
    // order a framework validates them in (Nest validates a handler's parameters together).
    it.each([
      ["a bad path id before a bad body", "patch", "/users/not-a-uuid", {}, { name: 5 }, "params.id"],
      ["a bad path id before a bad query", "get", "/orders/not-a-uuid?include=users", {}, undefined, "params.id"],
      [
        "a bad idempotency key before a bad body",
        "post",
        "/orders",
        { "idempotency-key": "k".repeat(256) },
        { quantity: "five" },
        "headers.idempotency-key",
      ],
    ] as Array<[string, "get" | "post" | "patch", string, Record<string, string>, cases.Body | undefined, string]>)(
      "reports %s",
      async (_, method, path, headers, body, first) => {
        const req = api()[method](path).set(headers);
        expectProblem(await (body ? req.send(body) : req), "validation", [first]);
      },
    );
  });

  describe("deeply nested bodies", () => {
    const nested = (depth: number) => `{"a":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;

    it("echoes a body nested 1,000 levels deep", async () => {
      const res = await api().post("/echo").set("content-type", "application/json").send(nested(1000));
      expect(res.status).toBe(200);
    });

    it("answers a body nested 1,001 levels deep as malformed JSON, not a 5xx", async () => {
      expectProblem(
        await api().post("/echo").set("content-type", "application/json").send(nested(1001)),
        "malformedJson",
      );
      expectProblem(
        await api().post("/users").set("content-type", "application/json").send(nested(20_000)),
        "malformedJson",
      );
    });
  });

  describe("content-encoded bodies", () => {
    it.each(["gzip", "deflate", "br", "compress", "GZIP"])(
      "a body sent with content-encoding: %s is a 415 (request bodies are never decoded)",
      async (encoding) => {
        const res = await api()
          .post("/echo")
          .set("content-type", "application/json")
          .set("content-encoding", encoding)
          .send('{"a":1}');
        expectProblem(res, "unsupportedMediaType");
      },
    );

    it("content-encoding: identity is an ordinary body", async () => {
      const res = await api()
        .post("/echo")
        .set("content-type", "application/json")
        .set("content-encoding", "identity")
        .send('{"a":1}');
      expect(res.status).toBe(200);
      expect(res.body.a).toBe(1);
    });
  });

  describe("prototype pollution", () => {
    const poisoned: Array<[string, string, string]> = [
      [
        "__proto__ at the top level",
        "/users",
        `{"email":"${uniqueEmail("proto")}","name":"P","__proto__":{"isAdmin":true}}`,
      ],
      ["__proto__ nested", "/echo", '{"a":{"b":[{"__proto__":{"polluted":"yes"}}]}}'],
      ["__proto__ at the top level of an echo", "/echo", '{"__proto__":{"polluted":"yes"}}'],
      ["constructor.prototype at the top level", "/echo", '{"constructor":{"prototype":{"polluted":"yes"}}}'],
      [
        "constructor.prototype nested",
        "/products",
        '{"name":"P","priceCents":1,"stock":1,"x":{"constructor":{"prototype":{"polluted":"yes"}}}}',
      ],
      ["__proto__ in an order", "/orders", `{"productId":"${MISSING_ID}","quantity":1,"__proto__":{"quantity":0}}`],
    ];

    it.each(poisoned)("refuses %s with a 400 on path body", async (_, path, text) => {
      expectProblem(await sendRaw("post", path, text), "validation", ["body"]);
    });

    it("leaves nothing polluted: later requests behave as before", async () => {
      for (const [, path, text] of poisoned) await sendRaw("post", path, text);
      const echo = expectJson(await api().post("/echo").send({ probe: 1 }), 200, EchoResponse);
      expect(echo).toEqual({ probe: 1, txnId: echo.txnId });
      expectProblem(await api().post("/users").send({}), "validation", ["body.email", "body.name"]);
      const created = await createUser(target, { name: "After Pollution" });
      expect(Object.keys(created).sort()).toEqual(["createdAt", "email", "id", "name", "role", "updatedAt"]);
      expect(created.role).toBe("customer");
      const email = (JSON.parse(poisoned[0]?.[2] ?? "{}") as { email: string }).email;
      if (target.databaseUrl) expect(await db("SELECT id FROM users WHERE email = $1", [email])).toEqual([]);
      else expect(await usersWithEmail(email)).toBe(0);
    });
  });

  describe("conflicts", () => {
    it.each([
      ["POST /users", () => api().post("/users").send({ email: fixtureUsers.buyer.email, name: "Twin" })],
      [
        "POST /users in another case",
        () => api().post("/users").send({ email: fixtureUsers.buyer.email.toUpperCase(), name: "Twin" }),
      ],
      ["PATCH /users/:id", () => api().patch(`/users/${user.id}`).send({ email: fixtureUsers.buyer.email })],
      [
        "POST /auth/register",
        () =>
          api().post("/auth/register").send({ email: fixtureUsers.buyer.email, name: "Twin", password: "long-enough" }),
      ],
      [
        "POST /auth/register in another case",
        () =>
          api()
            .post("/auth/register")
            .send({ email: fixtureUsers.buyer.email.toUpperCase(), name: "Twin", password: "long-enough" }),
      ],
    ])("%s with a taken e-mail is a 409 and stores nothing", async (_, send) => {
      // The whole table from the database; over HTTP, the number of users and the one with that address.
      const read = async () =>
        target.databaseUrl
          ? await db("SELECT id, email FROM users ORDER BY id")
          : [(await api().get("/users?limit=1&total=true")).body.total, await usersWithEmail(fixtureUsers.buyer.email)];
      const before = await read();
      expectProblem(await send(), "conflict");
      expect(await read()).toEqual(before);
    });

    const ordersOf = (id: string) => orderCountOf(target, id);

    it("ordering a sold-out product is a 409 on body.quantity that takes nothing", async () => {
      const { id } = fixtureProducts.outOfStock;
      const before = await ordersOf(id);
      const res = await as(user).post("/orders").send({ productId: id, quantity: 1 });
      expectProblem(res, "conflict", ["body.quantity"]);
      expect(await stockOf(target, id)).toBe(0);
      expect(await ordersOf(id)).toBe(before);
    });

    it("ordering more than the stock left is a 409 that leaves the stock as it was", async () => {
      const scarce = await createProduct(target, { stock: 3 });
      const res = await as(user).post("/orders").send({ productId: scarce.id, quantity: 4 });
      expectProblem(res, "conflict", ["body.quantity"]);
      expect(await stockOf(target, scarce.id)).toBe(3);
      expect(await ordersOf(scarce.id)).toBe(0);
    });

    describe("order status transitions", () => {
      const orders = {} as Record<"pending" | "shipped" | "delivered" | "cancelled", Order>;
      beforeAll(async () => {
        orders.pending = await orderIn(target, user, product.id, []);
        orders.shipped = await orderIn(target, user, product.id, ["shipped"]);
        orders.delivered = await orderIn(target, user, product.id, ["shipped", "delivered"]);
        orders.cancelled = await orderIn(target, user, product.id, ["cancelled"]);
      });

      it.each([
        ["pending", "pending"],
        ["pending", "delivered"],
        ["shipped", "pending"],
        ["shipped", "shipped"],
        ["shipped", "cancelled"],
        ["delivered", "pending"],
        ["delivered", "shipped"],
        ["delivered", "delivered"],
        ["delivered", "cancelled"],
        ["cancelled", "pending"],
        ["cancelled", "shipped"],
        ["cancelled", "delivered"],
        ["cancelled", "cancelled"],
      ] as const)("%s → %s is a 409 and the order keeps its status", async (from, to) => {
        const stockBefore = await stockOf(target, product.id);
        expectProblem(await api().patch(`/orders/${orders[from].id}`).send({ status: to }), "conflict");
        const after = expectJson(await api().get(`/orders/${orders[from].id}`), 200, Order);
        expect(after).toEqual(orders[from]);
        expect(await stockOf(target, product.id)).toBe(stockBefore);
      });
    });

    it.each([
      ["a user who has orders (the fixture buyer)", "/users", fixtureUsers.buyer.id],
      ["a product that orders reference (the fixture chair)", "/products", fixtureProducts.ordered.id],
      ["a user whose only orders were placed through the API", "/users", "own-user"],
      ["a product whose only orders were placed through the API", "/products", "own-product"],
    ])("deleting %s is a 409 and keeps it", async (_, base, fixed) => {
      const id = fixed === "own-user" ? user.id : fixed === "own-product" ? product.id : fixed;
      expectProblem(await api().delete(`${base}/${id}`), "conflict");
      expectStatus(await api().get(`${base}/${id}`), 200);
    });
  });

  describe("orders that reference nothing", () => {
    // The order's user is the caller, who exists; the product is the one reference a body can get wrong.
    it.each([
      ["a customer", () => as(user)],
      ["the admin", () => api()],
    ])("an order for an unknown product, by %s, is a 422 on body.productId that takes no stock", async (_, client) => {
      const before = await stockOf(target, product.id);
      const res = await client().post("/orders").send({ productId: MISSING_ID, quantity: 1 });
      expectProblem(res, "unprocessable", ["body.productId"]);
      expect(await stockOf(target, product.id)).toBe(before);
    });
  });

  describe("authentication", () => {
    const me = (authorization?: string) => {
      const req = anon().get("/auth/me");
      return authorization === undefined ? req : req.set("authorization", authorization);
    };
    /** Changes one character in the middle of a JWT part (0 header, 1 payload, 2 signature). */
    const tamper = (token: string, part: number) => {
      const parts = token.split(".");
      const text = parts[part] ?? "";
      const at = Math.floor(text.length / 2);
      parts[part] = text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
      return parts.join(".");
    };
    /** A token the target issued itself, to a user registered for these checks. */
    let valid: string;
    let owner: string;
    beforeAll(async () => {
      const res = await api()
        .post("/auth/register")
        .send({ email: uniqueEmail("auth"), name: "Token Owner", password: "long-enough" });
      expectStatus(res, 201);
      valid = res.body.token as string;
      owner = res.body.user.id as string;
    });

    it("accepts a token it issued (the control for the refusals below)", async () => {
      expectStatus(await me(`Bearer ${valid}`), 200);
    });

    itSecret("accepts a token signed with the shared secret (the control for the forged refusals below)", async () => {
      expectStatus(await me(`Bearer ${forgeToken(contract.jwtSecret, owner)}`), 200);
    });

    const now = () => Math.floor(Date.now() / 1000);
    it.each([
      ["no authorization header", async () => undefined],
      ["an empty authorization header", async () => ""],
      ["Bearer without a token", async () => "Bearer"],
      ["Bearer abc", async () => "Bearer abc"],
      ["Bearer a.b.c", async () => "Bearer a.b.c"],
      [
        "Basic credentials",
        async () => `Basic ${Buffer.from("buyer@fixtures.example.com:seed-password-1").toString("base64")}`,
      ],
      ["a token without the Bearer scheme", async () => valid],
      ["a token under another scheme", async () => `Token ${valid}`],
      ["a tampered signature", async () => `Bearer ${tamper(valid, 2)}`],
      ["a tampered payload", async () => `Bearer ${tamper(valid, 1)}`],
      [
        "a payload swapped for another user's",
        async () => {
          const [header, , signature] = valid.split(".");
          const payload = base64url({ sub: fixtureUsers.buyer.id, iat: now(), exp: now() + 3600 });
          return `Bearer ${header}.${payload}.${signature}`;
        },
      ],
      ["an unsigned token (alg: none)", async () => `Bearer ${forgeToken(contract.jwtSecret, owner, { alg: "none" })}`],
      [
        "a token signed with another secret",
        async () => `Bearer ${forgeToken(randomBytes(32).toString("base64url"), owner)}`,
      ],
    ] as Array<[string, () => Promise<string | undefined>]>)(
      "GET /auth/me with %s is a 401",
      async (_, authorization) => {
        expectProblem(await me(await authorization()), "unauthorized");
      },
    );

    // Tokens that are right in every way but one, which only the server's secret can sign.
    itSecret.each([
      [
        "an expired token",
        async () =>
          `Bearer ${forgeToken(contract.jwtSecret, owner, { issuedAt: now() - 7200, expiresAt: now() - 3600 })}`,
      ],
      ["a token signed with HS512", async () => `Bearer ${forgeToken(contract.jwtSecret, owner, { alg: "HS512" })}`],
      ["a token signed with HS384", async () => `Bearer ${forgeToken(contract.jwtSecret, owner, { alg: "HS384" })}`],
      ["a token whose subject is not a user id", async () => `Bearer ${forgeToken(contract.jwtSecret, "not-a-uuid")}`],
      ["a token whose subject is no user", async () => `Bearer ${forgeToken(contract.jwtSecret, MISSING_ID)}`],
    ] as Array<[string, () => Promise<string>]>)("GET /auth/me with %s is a 401", async (_, authorization) => {
      expectProblem(await me(await authorization()), "unauthorized");
    });

    it("a token stops working once its user is deleted", async () => {
      const email = uniqueEmail("gone");
      const reg = await api().post("/auth/register").send({ email, name: "Soon Gone", password: "long-enough" });
      expectStatus(reg, 201);
      const token = reg.body.token as string;
      expectStatus(await me(`Bearer ${token}`), 200);
      expectStatus(await api().delete(`/users/${reg.body.user.id}`), 204);
      expectProblem(await me(`Bearer ${token}`), "unauthorized");
    });

    it("a wrong password and an unknown e-mail give the same 401", async () => {
      const wrongPassword = await api()
        .post("/auth/login")
        .send({ email: fixtureUsers.buyer.email, password: `${SEED_PASSWORD}x` });
      const unknownEmail = await api()
        .post("/auth/login")
        .send({ email: uniqueEmail("nobody"), password: SEED_PASSWORD });
      const a = expectProblem(wrongPassword, "unauthorized");
      const b = expectProblem(unknownEmail, "unauthorized");
      expect(a).toEqual(b);
    });

    it("a registered user's wrong password is a 401 too", async () => {
      const email = uniqueEmail("wrongpw");
      expectStatus(await api().post("/auth/register").send({ email, name: "W", password: "right-password" }), 201);
      expectProblem(await api().post("/auth/login").send({ email, password: "wrong-password" }), "unauthorized");
      expectProblem(await api().post("/auth/login").send({ email, password: "right-password " }), "unauthorized");
    });
  });
});
