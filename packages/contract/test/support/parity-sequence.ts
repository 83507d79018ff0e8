// The request sequence of the differential parity check: one seeded pseudo-random walk over the API mixing
// reads, writes and errors. It is generated once, without looking at any response, so that every instance
// receives the same sequence; a request that needs an id created earlier names it by position
// (`{{id:17}}` = the id created by step 17), and each instance fills in its own generated id.
//
// Who calls is part of the walk: the first two steps log in as the seeded admin and the seeded buyer, and every
// later request to a route that needs a token carries the token one of them (or a registered customer) was issued,
// chosen by the route's `access` in the route table: mostly someone it lets in, now and then someone it refuses.
import { fixtureOrders, fixtureProducts, fixtureUsers, MISSING_ID, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { type Access, type CursorSort, encodeCursor, PRODUCT_SORTS, routes } from "../../src/index.ts";

/** A request of the sequence. `{{id:N}}` / `{{token:N}}` in path, headers or body name what step N produced. */
export interface StepRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Step {
  index: number;
  /** What the step is for, for humans reading a failure. */
  label: string;
  request: StepRequest;
}

export interface SeedIds {
  users: string[];
  products: string[];
  orders: string[];
}

/** What an instance produced so far: by step index, the created id and the issued token. */
export interface Produced {
  ids: Map<number, string>;
  tokens: Map<number, string>;
}

/** A well-formed id that names nothing: what a reference to a step that created nothing resolves to. */
export const NOTHING_CREATED_ID = "00000000-0000-4000-8000-00000000dead";
const NOTHING_ISSUED_TOKEN = "nothing.was.issued";

export function resolve(request: StepRequest, produced: Produced): StepRequest {
  const fill = (text: string) =>
    text.replace(/\{\{(id|token):(\d+)\}\}/g, (_, kind: string, n: string) =>
      kind === "id"
        ? (produced.ids.get(Number(n)) ?? NOTHING_CREATED_ID)
        : (produced.tokens.get(Number(n)) ?? NOTHING_ISSUED_TOKEN),
    );
  return {
    method: request.method,
    path: fill(request.path),
    headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, fill(v)])),
    ...(request.body === undefined ? {} : { body: fill(request.body) }),
  };
}

/** sfc32 seeded through splitmix32: small, fast and identical on every platform. */
export function createPrng(seed: number) {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(next() * items.length)] as T;
  };
  const chance = (p: number) => next() < p;
  const hex = (n: number) => Array.from({ length: n }, () => "0123456789abcdef"[int(0, 15)]).join("");
  /** A random v4 UUID: with overwhelming likelihood, no row has it. */
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(["8", "9", "a", "b"])}${hex(3)}-${hex(12)}`;
  return { next, int, pick, chance, uuid };
}
type Prng = ReturnType<typeof createPrng>;

/** A weighted choice among generators. */
function weighted<T>(rng: Prng, options: ReadonlyArray<readonly [number, () => T]>): T {
  const total = options.reduce((sum, [w]) => sum + w, 0);
  let roll = rng.next() * total;
  for (const [w, make] of options) {
    roll -= w;
    if (roll < 0) return make();
  }
  const last = options[options.length - 1];
  if (!last) throw new Error("no options");
  return last[1]();
}

const JSON_HEADERS = { "content-type": "application/json" };

/** Each route's path as a pattern (any segment for a parameter) and who may call it. */
const ACCESS: ReadonlyArray<{ method: string; pattern: RegExp; access: Access }> = routes.flatMap((route) => {
  const pattern = new RegExp(`^${route.path.replace(/:\w+/g, "[^/]+")}$`);
  return [
    { method: route.method, pattern, access: route.access },
    ...(route.method === "GET" ? [{ method: "HEAD", pattern, access: route.access }] : []),
  ];
});
/** The access of the route a request reaches, or undefined when none does (a 404 or a 405, whoever asks). */
const accessOf = (method: string, path: string) =>
  ACCESS.find((r) => r.method === method && r.pattern.test(path.split("?")[0] ?? ""))?.access;
const SEARCH_TERMS = ["ada", "LOVE", "oak", "Lamp", "fixture", "turing", "%", "_", "a_b", "zzz-nothing", "ch", "Ç"];
const PAGES = ["1", "1", "1", "2", "3", "7", "600", "1000000"];
/** Cursors no list wrote: not base64url, not a position, or another sort's. */
const BAD_CURSORS = ["", "abc", "a+b", encodeCursor("name", { key: "oak", id: MISSING_ID })];
/** Around when the seed's rows were created: cursor keys are drawn from the 400 days after it. */
const CURSOR_EPOCH = "2025-01-01T00:00:00.000Z";
const LIMITS = ["1", "5", "20", "20", "50", "100"];
/** Written as they go on the wire: `%2B2` is a literal `+2`, `%202` is ` 2` (and a bare `+` would be a space). */
const BAD_INTS = ["0", "-1", "abc", "1.5", "2.0", "%2B2", "0x2", "1e1", "%202", "", "1000001"];

export interface SequenceOptions {
  seed: number;
  length: number;
  /** Rows of the seeded template, in id order; the sequence names some of them. */
  seedIds: SeedIds;
}

/**
 * Generates the sequence. The generator keeps a rough model of what exists (seeded rows, rows created by
 * earlier steps) so that most requests name something real; whether each one succeeds is for the instances to
 * decide, and only their agreement matters.
 */
export function generateSequence({ seed, length, seedIds }: SequenceOptions): Step[] {
  const rng = createPrng(seed);
  const steps: Step[] = [];
  // Ids by reference: a literal id, or `{{id:N}}` for what step N created.
  const users: string[] = [fixtureUsers.buyer.id, fixtureUsers.noOrders.id, ...sample(rng, seedIds.users, 8)];
  const products: string[] = [...Object.values(fixtureProducts).map((p) => p.id), ...sample(rng, seedIds.products, 8)];
  const orders: string[] = [...Object.values(fixtureOrders).map((o) => o.id), ...sample(rng, seedIds.orders, 8)];
  const createdOrders: string[] = [];
  const emails: string[] = [fixtureUsers.buyer.email, fixtureUsers.noOrders.email];
  const accounts: Array<{ email: string; password: string; admin?: boolean }> = [
    { email: fixtureUsers.buyer.email, password: SEED_PASSWORD },
    { email: fixtureUsers.admin.email, password: SEED_PASSWORD, admin: true },
  ];
  // Steps 0 and 1 log in as the seeded admin and buyer (below): their tokens are `{{token:0}}` and `{{token:1}}`.
  const ADMIN = { authorization: "Bearer {{token:0}}" };
  /** Tokens of customers: the buyer's, and those of accounts registered or logged in along the way. */
  const customerTokens: string[] = ["{{token:1}}"];
  /** Every token issued, for `GET /auth/me`. */
  const tokens: string[] = ["{{token:0}}", "{{token:1}}"];
  const idempotent: Array<{ key: string; body: string; caller: Record<string, string> }> = [];
  let registrations = 0;
  let logins = 0;

  const recent = (items: string[]) =>
    rng.chance(0.6) && items.length > 3 ? rng.pick(items.slice(-6)) : rng.pick(items);
  const someId = (items: string[]) =>
    weighted(rng, [
      [85, () => recent(items)],
      [8, () => MISSING_ID],
      [4, () => rng.uuid()],
      [3, () => rng.pick(["not-a-uuid", "12345", "00000000-0000-4000-8000-00000000000g", "%20"])],
    ]);
  /** Mostly something that exists (or existed): for writes that should mostly succeed. */
  const liveId = (items: string[]) => (rng.chance(0.93) ? recent(items) : someId(items));
  const requestId = () =>
    weighted<Record<string, string>>(rng, [
      [50, () => ({})],
      [45, () => ({ "x-request-id": `parity-${steps.length}` })],
      [5, () => ({ "x-request-id": rng.pick(["has space", "x".repeat(129), "ünïcode"]) })],
    ]);
  const json = (value: unknown) => JSON.stringify(value);

  const customer = () => ({ authorization: `Bearer ${recent(customerTokens)}` });
  /** A caller every protected route refuses with a 401: none, a malformed token, another scheme. */
  const refused = () =>
    rng.pick<Record<string, string>>([
      {},
      { authorization: "Bearer not.a.jwt" },
      { authorization: "Basic dXNlcjpwYXNz" },
    ]);
  /** Who calls a route, by its access: mostly someone it lets in (a customer or the admin), now and then not. */
  const callerFor = (method: string, path: string): Record<string, string> => {
    const access = accessOf(method, path);
    if (access === undefined || access === "public") return {};
    if (access === "admin")
      return weighted<Record<string, string>>(rng, [
        [88, () => ADMIN],
        [7, customer],
        [5, refused],
      ]);
    return weighted<Record<string, string>>(rng, [
      [50, () => ADMIN],
      [45, customer],
      [5, refused],
    ]);
  };

  /** Adds a step; `caller` is its `authorization` (none: `{}`), by default one chosen for the route. */
  const add = (
    label: string,
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
    caller: Record<string, string> = callerFor(method, path),
  ) => {
    const index = steps.length;
    const request: StepRequest = {
      method,
      path,
      headers: { ...requestId(), ...caller, ...(body === undefined ? {} : JSON_HEADERS), ...headers },
      ...(body === undefined ? {} : { body }),
    };
    steps.push({ index, label, request });
    return index;
  };
  add("log in as the admin", "POST", "/auth/login", json({ email: fixtureUsers.admin.email, password: SEED_PASSWORD }));
  add("log in as the buyer", "POST", "/auth/login", json({ email: fixtureUsers.buyer.email, password: SEED_PASSWORD }));

  // ---- query strings -----------------------------------------------------------------------------------------
  /** A position the API could have written for a list in `sort` (a key near the seed's, an id of its rows). */
  const cursorFor = (sort: CursorSort) => {
    const field = sort.replace("-", "");
    const key =
      field === "createdAt"
        ? new Date(Date.parse(CURSOR_EPOCH) + rng.int(0, 400) * 86_400_000 + rng.int(0, 999)).toISOString()
        : field === "priceCents"
          ? rng.int(0, 60000)
          : rng.pick(SEARCH_TERMS);
    return encodeCursor(sort, { key, id: rng.pick([MISSING_ID, ...users, ...products]) });
  };
  const paging = (params: string[], sort: CursorSort = "-createdAt") => {
    if (rng.chance(0.5)) params.push(`page=${rng.chance(0.08) ? rng.pick(BAD_INTS) : rng.pick(PAGES)}`);
    if (rng.chance(0.6)) params.push(`limit=${rng.chance(0.08) ? rng.pick([...BAD_INTS, "101"]) : rng.pick(LIMITS)}`);
    if (rng.chance(0.3)) params.push(`cursor=${rng.chance(0.1) ? rng.pick(BAD_CURSORS) : cursorFor(sort)}`);
    if (rng.chance(0.3)) params.push(`total=${rng.pick(["true", "false", "true", "yes"])}`);
  };
  const query = (params: string[]) => {
    if (rng.chance(0.04)) params.push(rng.pick(["unknown=1", "limit=1&limit=2", "page=1&page=1", "LIMIT=5"]));
    const shuffled = params.map((p) => [rng.next(), p] as const).sort((x, y) => x[0] - y[0]);
    return shuffled.length ? `?${shuffled.map(([, p]) => p).join("&")}` : "";
  };
  const q = () =>
    `q=${rng.chance(0.05) ? rng.pick(["", "x".repeat(101), "%00"]) : encodeURIComponent(rng.pick(SEARCH_TERMS))}`;

  const usersQuery = () => {
    const params: string[] = [];
    paging(params);
    if (rng.chance(0.4)) params.push(q());
    return query(params);
  };
  const productsQuery = () => {
    const params: string[] = [];
    const sort = rng.chance(0.5)
      ? rng.pick(["createdAt", "-createdAt", "priceCents", "-priceCents", "name", "-name", "price"])
      : undefined;
    if (sort) params.push(`sort=${sort}`);
    // A cursor in the list's sort (in another one now and then, which is a 400).
    const cursorSort = PRODUCT_SORTS.find((s) => s === sort) ?? (sort ? rng.pick([...PRODUCT_SORTS]) : "-createdAt");
    paging(params, cursorSort);
    if (rng.chance(0.3)) params.push(q());
    const min = rng.int(0, 60000);
    const max = rng.int(0, 100000);
    if (rng.chance(0.3)) params.push(`minPriceCents=${rng.chance(0.1) ? rng.pick(BAD_INTS) : min}`);
    if (rng.chance(0.3)) params.push(`maxPriceCents=${rng.chance(0.1) ? rng.pick(BAD_INTS) : max}`);
    if (rng.chance(0.3)) params.push(`inStock=${rng.pick(["true", "false", "true", "yes", "1"])}`);
    return query(params);
  };
  const include = () =>
    rng.chance(0.85)
      ? rng.pick(["user", "product", "user,product", "product,user"])
      : rng.pick(["users", "user,user", "user,product,x", "", "USER"]);
  const ordersQuery = () => {
    const params: string[] = [];
    paging(params);
    if (rng.chance(0.3)) params.push(`status=${rng.pick(["pending", "shipped", "delivered", "cancelled", "lost"])}`);
    if (rng.chance(0.25)) params.push(`userId=${someId(users)}`);
    if (rng.chance(0.25)) params.push(`productId=${someId(products)}`);
    if (rng.chance(0.4)) params.push(`include=${include()}`);
    return query(params);
  };

  // ---- bodies ------------------------------------------------------------------------------------------------
  const newUserBody = (n: number) => {
    const email = rng.chance(0.3) ? `Parity.User.${n}@Example.COM` : `parity-user-${n}@example.com`;
    const name = rng.pick([`Parity User ${n}`, `  Padded ${n}  `, `Ünïcödé ${n}`]);
    return { email, name };
  };
  const invalidUserBody = () =>
    rng.pick<unknown>([
      {},
      { email: "not-an-email", name: "X" },
      { email: "ok@example.com" },
      { name: "No Email" },
      { email: "ok2@example.com", name: "   " },
      { email: "ok3@example.com", name: "x".repeat(101) },
      { email: 42, name: ["array"] },
      { email: "ok4@example.com", name: "Extra", role: "admin" },
      { email: "ok5@example.com", name: "Id", id: MISSING_ID, createdAt: "2020-01-01T00:00:00.000Z" },
      { email: `${"a".repeat(250)}@example.com`, name: "Long" },
      { email: "nul@example.com", name: "nul\u0000byte" },
    ]);
  const newProductBody = (n: number) => ({
    name: `Parity Product ${n}`,
    ...(rng.chance(0.5) ? { description: rng.pick([null, `Made by step ${n}.`, ""]) } : {}),
    priceCents: rng.int(0, 50000),
    stock: rng.pick([0, 1, 3, 10, 500, 1000]),
  });
  const invalidProductBody = () =>
    rng.pick<unknown>([
      {},
      { name: "", priceCents: 100, stock: 1 },
      { name: "Neg", priceCents: -1, stock: 1 },
      { name: "Float", priceCents: 10.5, stock: 1 },
      { name: "String", priceCents: "100", stock: 1 },
      { name: "Stock", priceCents: 100, stock: 1000001 },
      { name: "Too pricey", priceCents: 100000001, stock: 0 },
      { name: "x".repeat(201), priceCents: 1, stock: 1 },
      { name: "Desc", description: "d".repeat(2001), priceCents: 1, stock: 1 },
      { name: "Extra", priceCents: 1, stock: 1, sku: "A-1" },
      { name: "Null price", priceCents: null, stock: 1 },
    ]);
  // Orders mostly go to products with plenty of stock, so that most succeed and later steps have orders to change.
  const orderProduct = () =>
    rng.chance(0.45) ? rng.pick([fixtureProducts.unordered.id, fixtureProducts.ordered.id]) : liveId(products);
  const orderBody = () => ({
    productId: orderProduct(),
    quantity: weighted(rng, [
      [91, () => rng.int(1, 3)],
      [5, () => rng.pick([20, 100])],
      [4, () => rng.pick<unknown>([0, 101, "2", 1.5, null, -3])],
    ]),
  });
  const invalidOrderBody = () =>
    rng.pick<unknown>([
      {},
      { productId: fixtureProducts.unordered.id },
      // The order's user is the caller: a userId is an unknown field.
      { userId: fixtureUsers.buyer.id, productId: fixtureProducts.unordered.id, quantity: 1 },
      { productId: fixtureProducts.unordered.id, quantity: 1, totalCents: 1 },
      { productId: fixtureProducts.unordered.id, quantity: 1, status: "shipped" },
    ]);

  // ---- steps -------------------------------------------------------------------------------------------------
  const reads = (): void => {
    weighted<unknown>(rng, [
      [10, () => add("list users", "GET", `/users${usersQuery()}`)],
      [12, () => add("list products", "GET", `/products${productsQuery()}`)],
      [12, () => add("list orders", "GET", `/orders${ordersQuery()}`)],
      [7, () => add("get a user", "GET", `/users/${someId(users)}`)],
      [7, () => add("get a product", "GET", `/products/${someId(products)}`)],
      [
        9,
        () => {
          const inc = rng.chance(0.5) ? `?include=${include()}` : rng.chance(0.1) ? "?unknown=1" : "";
          return add(
            "get an order",
            "GET",
            `/orders/${liveId(rng.chance(0.5) && createdOrders.length ? createdOrders : orders)}${inc}`,
          );
        },
      ],
      [2, () => add("health", "GET", "/health")],
      [2, () => add("readiness", "GET", "/ready")],
      [1, () => add("hello", "GET", "/")],
      [1, () => add("metrics", "GET", "/metrics")],
      [1, () => add("openapi", "GET", "/openapi.json")],
      [2, () => add("head of a user", "HEAD", `/users/${someId(users)}`)],
      [1, () => add("head of a list", "HEAD", `/products${productsQuery()}`)],
      [
        4,
        () => {
          const auth = weighted<Record<string, string>>(rng, [
            [60, () => (tokens.length ? { authorization: `Bearer ${rng.pick(tokens)}` } : {})],
            [10, () => ({})],
            [10, () => ({ authorization: "Bearer not.a.jwt" })],
            [10, () => ({ authorization: "Basic dXNlcjpwYXNz" })],
            [
              10,
              () => ({
                authorization:
                  "Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIwMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDEifQ.",
              }),
            ],
          ]);
          return add("who am I", "GET", "/auth/me", undefined, {}, auth);
        },
      ],
    ]);
  };

  const writes = (): void => {
    const n = steps.length;
    weighted<unknown>(rng, [
      [
        9,
        () => {
          const body = newUserBody(n);
          const index = add("create a user", "POST", "/users", json(body));
          users.push(`{{id:${index}}}`);
          emails.push(body.email.toLowerCase());
        },
      ],
      [
        2,
        () =>
          add(
            "create a user with a taken e-mail",
            "POST",
            "/users",
            json({ email: rng.pick(emails).toUpperCase(), name: "Dup" }),
          ),
      ],
      [
        6,
        () => {
          const body = rng.pick<Record<string, unknown>>([
            { name: `Renamed ${n}` },
            { email: `renamed-${n}@example.com` },
            { email: rng.pick(emails), name: "Taken" },
            { name: ` Trim ${n} ` },
          ]);
          return add("update a user", "PATCH", `/users/${someId(users)}`, json(body));
        },
      ],
      [3, () => add("delete a user", "DELETE", `/users/${someId(users)}`)],
      [
        9,
        () => {
          const index = add("create a product", "POST", "/products", json(newProductBody(n)));
          products.push(`{{id:${index}}}`);
        },
      ],
      [
        6,
        () => {
          const body = rng.pick<Record<string, unknown>>([
            { stock: rng.pick([0, 2, 50]) },
            { priceCents: rng.int(0, 9999) },
            { name: `Renamed product ${n}`, description: null },
            { description: `Now described at ${n}.` },
          ]);
          return add("update a product", "PATCH", `/products/${someId(products)}`, json(body));
        },
      ],
      [3, () => add("delete a product", "DELETE", `/products/${someId(products)}`)],
      [
        18,
        () => {
          const body = json(orderBody());
          const roll = rng.next();
          if (roll < 0.2) {
            const key = `parity-key-${n}`;
            const caller = callerFor("POST", "/orders");
            idempotent.push({ key, body, caller });
            const index = add(
              "place an order with an idempotency key",
              "POST",
              "/orders",
              body,
              { "idempotency-key": key },
              caller,
            );
            orders.push(`{{id:${index}}}`);
            createdOrders.push(`{{id:${index}}}`);
          } else if (roll < 0.3 && idempotent.length) {
            const earlier = rng.pick(idempotent);
            const sameBody = rng.chance(0.7);
            // Mostly its own user's retry (a replay); now and then another user's (a key of their own: a new order).
            const sameCaller = rng.chance(0.8);
            add(
              `${sameBody ? "retry an order with its idempotency key" : "reuse an idempotency key with another body"}${sameCaller ? "" : ", as another caller"}`,
              "POST",
              "/orders",
              sameBody ? earlier.body : json(orderBody()),
              { "idempotency-key": earlier.key },
              sameCaller ? earlier.caller : callerFor("POST", "/orders"),
            );
          } else {
            const index = add("place an order", "POST", "/orders", body);
            orders.push(`{{id:${index}}}`);
            createdOrders.push(`{{id:${index}}}`);
          }
        },
      ],
      [
        10,
        () => {
          // A customer may only cancel (their own order): the others are a 403 for them.
          const status = rng.pick(["shipped", "delivered", "cancelled", "pending", "shipped", "cancelled"]);
          const target = liveId(rng.chance(0.7) && createdOrders.length ? createdOrders : orders);
          return add("change an order's status", "PATCH", `/orders/${target}`, json({ status }));
        },
      ],
      [
        3,
        () =>
          add(
            "delete an order",
            "DELETE",
            `/orders/${liveId(rng.chance(0.7) && createdOrders.length ? createdOrders : orders)}`,
          ),
      ],
      [
        2,
        () => {
          if (registrations >= 4) return add("list users", "GET", `/users${usersQuery()}`);
          registrations++;
          const account = { email: `parity-account-${n}@example.com`, password: `password-${n}` };
          const index = add("register", "POST", "/auth/register", json({ ...account, name: `Account ${n}` }));
          users.push(`{{id:${index}}}`);
          emails.push(account.email);
          accounts.push(account);
          tokens.push(`{{token:${index}}}`);
          customerTokens.push(`{{token:${index}}}`);
        },
      ],
      [
        2,
        () => {
          if (logins >= 5) return add("readiness", "GET", "/ready");
          logins++;
          const account = rng.pick(accounts);
          const variant = rng.pick(["right", "right", "wrong password", "unknown e-mail", "upper-cased e-mail"]);
          const body =
            variant === "wrong password"
              ? { email: account.email, password: `${account.password}!` }
              : variant === "unknown e-mail"
                ? { email: `nobody-${n}@example.com`, password: account.password }
                : variant === "upper-cased e-mail"
                  ? { email: account.email.toUpperCase(), password: account.password }
                  : account;
          const index = add(
            `log in (${variant})`,
            "POST",
            "/auth/login",
            json({ email: body.email, password: body.password }),
          );
          if (variant === "right" || variant === "upper-cased e-mail") {
            tokens.push(`{{token:${index}}}`);
            if (!account.admin) customerTokens.push(`{{token:${index}}}`);
          }
        },
      ],
      [3, () => add("echo", "POST", "/echo", json({ n, nested: { list: [1, "two", null] }, text: "héllo" }))],
    ]);
  };

  const errors = (): void => {
    weighted<unknown>(rng, [
      [6, () => add("create a user with an invalid body", "POST", "/users", json(invalidUserBody()))],
      [6, () => add("create a product with an invalid body", "POST", "/products", json(invalidProductBody()))],
      [4, () => add("place an order with an invalid body", "POST", "/orders", json(invalidOrderBody()))],
      [3, () => add("update a user with nothing", "PATCH", `/users/${someId(users)}`, json({}))],
      [
        2,
        () =>
          add(
            "update a product with an invalid body",
            "PATCH",
            `/products/${someId(products)}`,
            json({ stock: -1, x: 1 }),
          ),
      ],
      [
        3,
        () =>
          add(
            "change an order to an unknown status",
            "PATCH",
            `/orders/${someId(orders)}`,
            json({ status: rng.pick(["lost", "", 1]) }),
          ),
      ],
      [4, () => add("get an unknown user", "GET", `/users/${rng.pick([MISSING_ID, rng.uuid(), "not-a-uuid"])}`)],
      [3, () => add("get an unknown product", "GET", `/products/${rng.pick([MISSING_ID, rng.uuid(), "1"])}`)],
      [3, () => add("delete an unknown order", "DELETE", `/orders/${rng.pick([MISSING_ID, rng.uuid(), "x"])}`)],
      [
        5,
        () => {
          const [path, method] = rng.pick([
            ["/users", "PUT"],
            ["/users", "DELETE"],
            ["/users", "OPTIONS"],
            ["/users/{id}", "POST"],
            ["/users/{id}", "PUT"],
            ["/products", "PATCH"],
            ["/orders/{id}", "PUT"],
            ["/auth/login", "GET"],
            ["/auth/me", "POST"],
            ["/health", "POST"],
            ["/echo", "GET"],
            ["/", "DELETE"],
          ] as const);
          return add("unsupported method", method, path.replace("{id}", someId(users)));
        },
      ],
      [
        3,
        () =>
          add(
            "unknown path",
            rng.pick(["GET", "POST", "DELETE"]),
            rng.pick(["/nope", "/users/", "/Users", `/users/${MISSING_ID}/orders`, "/orders/x/y", "/auth"]),
          ),
      ],
      [
        4,
        () =>
          add(
            "malformed JSON",
            ...rng.pick<[string, string]>([
              ["POST", "/users"],
              ["POST", "/products"],
              ["POST", "/orders"],
              ["POST", "/auth/login"],
              ["PATCH", `/users/${someId(users)}`],
              ["PATCH", `/orders/${someId(orders)}`],
            ]),
            rng.pick(['{"email":', "{'a':1}", "{,}", '{"a":1}}', "nul"]),
          ),
      ],
      [
        3,
        () => {
          const [body, type] = rng.pick([
            ["email=a@b.c&name=x", "application/x-www-form-urlencoded"],
            ['{"email":"a@b.c","name":"x"}', "text/plain"],
            ['{"email":"a@b.c","name":"x"}', "application/json; charset=latin1"],
          ] as const);
          return add("not JSON", "POST", rng.pick(["/users", "/echo"]), body, { "content-type": type });
        },
      ],
      [
        3,
        () =>
          add(
            "body that is not an object",
            "POST",
            rng.pick(["/users", "/products", "/orders", "/echo"]),
            rng.pick(["[]", '"text"', "null", "42", ""]),
          ),
      ],
      [
        2,
        () =>
          add(
            "prototype keys",
            "POST",
            rng.pick(["/users", "/echo"]),
            rng.pick([
              '{"__proto__":{"admin":true},"email":"p@example.com","name":"P"}',
              '{"a":{"constructor":{"prototype":{"x":1}}}}',
            ]),
          ),
      ],
      [
        2,
        () =>
          add(
            "list with a bad query",
            "GET",
            rng.pick([
              "/users?q=",
              "/products?minPriceCents=500&maxPriceCents=100",
              "/orders?include=user,user",
              "/orders?userId=nope",
              "/users?limit=1&limit=2",
            ]),
          ),
      ],
    ]);
  };

  while (steps.length < length) {
    weighted<void>(rng, [
      [40, reads],
      [36, writes],
      [24, errors],
    ]);
  }
  return steps.slice(0, length);
}

function sample(rng: Prng, items: readonly string[], n: number): string[] {
  if (items.length === 0) return [];
  return Array.from({ length: n }, () => rng.pick(items));
}
