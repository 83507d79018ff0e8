// Assertions and small builders shared by the routes and errors contract files: one place that knows what a
// JSON success, a problem response and a page of a list must look like on the wire.
import { randomBytes } from "node:crypto";
import { bearerFor, exchange, type SocketResponse, sql } from "@api-ref/harness";
import type { Response } from "supertest";
import { expect } from "vitest";
import { z } from "zod";
import {
  Order,
  type Page,
  PROBLEMS,
  Problem,
  type ProblemKind,
  Product,
  REQUEST_ID_PATTERN,
  User,
} from "../../src/index.ts";
import { type Caller, checksNeeding, contract, http, httpAs } from "../targets.ts";

export type Target = (typeof contract.targets)[number];

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
/** README: `application/problem+json` (PROBLEM_CONTENT_TYPE), optionally with `; charset=utf-8`. */
const PROBLEM_CONTENT_TYPE_PATTERN = /^application\/problem\+json(; ?charset=utf-8)?$/i;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `GET /users/abc → 400 {...}`: the context printed with every failed status check. */
export function describeResponse(res: Response): string {
  const req = (res as unknown as { req?: { method?: string; path?: string } }).req;
  const body = res.text === undefined ? "" : res.text.slice(0, 2000);
  return `${req?.method ?? "?"} ${req?.path ?? "?"} → ${res.status} ${res.headers["content-type"] ?? ""} ${body}`;
}

/** Parses with a contract schema; on failure, names every issue and shows the value. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new Error(
      `response does not match the contract:\n${z.prettifyError(result.error)}\n${JSON.stringify(value)}`,
    );
  }
  return result.data;
}

/** Every response carries an x-request-id (its own or a fresh UUID). */
function expectRequestId(res: Response) {
  const id = res.headers["x-request-id"];
  expect(
    typeof id === "string" && REQUEST_ID_PATTERN.test(id),
    `x-request-id "${id}" on ${describeResponse(res)}`,
  ).toBe(true);
}

export function expectStatus(res: Response, status: number) {
  expect(res.status, describeResponse(res)).toBe(status);
}

/** A JSON success: status, exact content type, request id, and a body that the contract schema accepts. */
export function expectJson<T extends z.ZodType>(res: Response, status: number, schema: T): z.output<T> {
  expectStatus(res, status);
  expect(res.headers["content-type"], describeResponse(res)).toBe(JSON_CONTENT_TYPE);
  expectRequestId(res);
  return parseWith(schema, res.body);
}

/** What `errors[].path` values a problem lists, as a sorted set. */
export const pathSet = (paths: readonly string[]) => [...new Set(paths)].sort();

/**
 * A problem response of the given kind: status, content type, request id, RFC 9457 body with the exact type
 * and title. `paths`, when given, is the exact set of `errors[].path` values; validation problems must give it.
 */
export function expectProblem(res: Response, kind: ProblemKind, paths?: readonly string[]): Problem {
  const expected = PROBLEMS[kind];
  expectStatus(res, expected.status);
  expect(res.headers["content-type"] ?? "", describeResponse(res)).toMatch(PROBLEM_CONTENT_TYPE_PATTERN);
  expectRequestId(res);
  const body = parseWith(Problem, res.body);
  expect({ type: body.type, title: body.title, status: body.status }, describeResponse(res)).toEqual(expected);
  // detail is free text, but never a stack trace or an internal file name.
  expect(body.detail).not.toMatch(/\n\s+at |node_modules|\.[cm]?[jt]s:\d+|prisma/i);
  if (kind === "validation" && paths === undefined) throw new Error("a validation problem needs its expected paths");
  if (paths !== undefined) {
    expect(body.errors, describeResponse(res)).toBeDefined();
    expect(pathSet((body.errors ?? []).map((e) => e.path)), describeResponse(res)).toEqual(pathSet(paths));
  }
  return body;
}

/**
 * Sends one request over a plain socket, exactly as given (no content-length unless `body` is given, so a POST
 * can carry no body at all), and returns exactly what came back (`connection: close`), the body of a HEAD or 204
 * as the bytes on the wire (a client library would hide them).
 *
 * A server may answer before it has read the whole body and close the connection (Fastify and uvicorn do so for
 * a body over the limit, so as not to read what they will refuse). A large body is therefore sent the way a
 * careful client sends it: the head first, a pause in which a server that refuses on the head alone (413)
 * answers, then the body in pieces, stopped as soon as an answer arrives. Written in one piece, the rest of it
 * reached a server that had answered and closed, whose reset could discard its answer before it was read.
 */
export async function rawRequest(
  target: { url: string },
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<SocketResponse> {
  const url = new URL(target.url);
  const head = [
    `${method} ${path} HTTP/1.1`,
    `host: ${url.host}`,
    "connection: close",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ...(body === undefined ? [] : [`content-length: ${Buffer.byteLength(body)}`]),
    "",
    "",
  ].join("\r\n");
  const bytes = Buffer.from(body ?? "");
  const pieces =
    bytes.length <= LARGE_BODY_BYTES
      ? [head + (body ?? "")]
      : [
          head,
          ...Array.from({ length: Math.ceil(bytes.length / LARGE_BODY_PIECE_BYTES) }, (_, i) =>
            bytes.subarray(i * LARGE_BODY_PIECE_BYTES, (i + 1) * LARGE_BODY_PIECE_BYTES),
          ),
        ];
  const answer = await exchange(target.url, head, {
    methods: [method],
    timeoutMs: 15_000,
    pieces,
    pauseMs: [EARLY_ANSWER_WAIT_MS],
  });
  const [response] = answer.responses;
  if (!response) {
    throw new Error(
      `${method} ${path}: no complete response in 15 s${answer.garbage ? ` (received ${answer.garbage})` : answer.closed ? " (connection closed)" : ""}`,
    );
  }
  return response;
}

/** Bodies above this are sent in pieces (see rawRequest). */
const LARGE_BODY_BYTES = 64 * 1024;
const LARGE_BODY_PIECE_BYTES = 64 * 1024;
/** How long a large body waits after the head for a server that answers on the head alone. */
const EARLY_ANSWER_WAIT_MS = 250;

/** A raw response in the shape the assertions above read (status, headers, parsed body, text). */
export function asResponse(raw: SocketResponse, method: string, path: string): Response {
  const text = raw.body.toString("utf8");
  let body: unknown = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the assertions will say so
  }
  return { status: raw.status, headers: raw.headers, body, text, req: { method, path } } as unknown as Response;
}

// ---- the target's database ----------------------------------------------------------------------------------

/**
 * What a check of `target` works with: `api()`, a supertest client for it signed in as the seeded admin (most
 * checks are about something else than who may call a route: the admin may call every one); `anon()`, one that
 * sends no token; `as(caller)`, one signed in as a seeded user or with a given `authorization` header; `db`, SQL
 * on its database; `itDb` and `itSecret`, \`it\` for checks that need its database or its JWT secret (skipped
 * with a reason when the run has not).
 */
export function checkContext(target: Target) {
  return {
    api: () => httpAs(target, "admin"),
    anon: () => http(target),
    as: (caller: Caller) => httpAs(target, caller),
    db: dbOf(target),
    ...checksNeeding(target),
  };
}

/** Queries the target's own database (only the suite's own targets have one). */
export function dbOf(target: Target) {
  return async <T extends Record<string, unknown> = Record<string, unknown>>(text: string, params: unknown[] = []) => {
    if (!target.databaseUrl) throw new Error(`${target.name} has no database the suite can read (URL mode)`);
    return (await sql(target.databaseUrl, text, params)) as T[];
  };
}

/** A product's stock: read from the target's database when the run has it, else as GET /products/:id reports it. */
export async function stockOf(target: Target, productId: string): Promise<number> {
  if (target.databaseUrl) {
    const [row] = await sql<{ stock: number }>(target.databaseUrl, "SELECT stock FROM products WHERE id = $1", [
      productId,
    ]);
    if (!row) throw new Error(`product ${productId} is not in the database`);
    return row.stock;
  }
  return expectJson(await http(target).get(`/products/${productId}`), 200, Product).stock;
}

/** How many orders reference a product: from the database when the run has it, else GET /orders?productId=. */
export async function orderCountOf(target: Target, productId: string): Promise<number> {
  if (target.databaseUrl) {
    const [row] = await sql<{ count: string }>(
      target.databaseUrl,
      "SELECT count(*)::text AS count FROM orders WHERE product_id = $1",
      [productId],
    );
    return Number(row?.count);
  }
  const res = await httpAs(target, "admin").get(`/orders?productId=${productId}&limit=1&total=true`);
  expectStatus(res, 200);
  return res.body.total as number;
}

/** Checks the embedded user/product of each order against the database, and that nothing else is embedded. */
export async function expectIncluded(target: Target, orders: Order[], include: { user: boolean; product: boolean }) {
  const db = dbOf(target);
  const userById = new Map<unknown, unknown>();
  const productById = new Map<unknown, unknown>();
  if (target.databaseUrl) {
    const users = await db(`SELECT ${USER_COLUMNS} FROM users WHERE id = ANY($1::uuid[])`, [
      orders.map((o) => o.userId),
    ]);
    const products = await db(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE id = ANY($1::uuid[])`, [
      orders.map((o) => o.productId),
    ]);
    for (const row of users) userById.set(row.id, userJson(row));
    for (const row of products) productById.set(row.id, productJson(row));
  } else {
    // Without the database, what GET /users/:id and GET /products/:id answer for the same rows.
    for (const id of new Set(orders.map((o) => o.userId)))
      userById.set(id, expectJson(await httpAs(target, "admin").get(`/users/${id}`), 200, User));
    for (const id of new Set(orders.map((o) => o.productId)))
      productById.set(id, expectJson(await http(target).get(`/products/${id}`), 200, Product));
  }
  for (const order of orders) {
    expect(order.user).toEqual(include.user ? userById.get(order.userId) : undefined);
    expect(order.product).toEqual(include.product ? productById.get(order.productId) : undefined);
    expect("user" in order).toBe(include.user);
    expect("product" in order).toBe(include.product);
  }
}

/** ISO 8601 with milliseconds, as the API prints timestamps. */
export const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

/** The API's JSON for a users row selected with `USER_COLUMNS`. */
export const USER_COLUMNS = "id, email, name, role, created_at, updated_at";
export const userJson = (row: Record<string, unknown>) => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export const PRODUCT_COLUMNS = "id, name, description, price_cents, stock, created_at, updated_at";
export const productJson = (row: Record<string, unknown>) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  priceCents: row.price_cents,
  stock: row.stock,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/**
 * A list response against the full ordered id list SQL gives for the same filter: page, limit, the true total,
 * pages = ceil(total / limit), and exactly the ids of that slice in that order.
 */
/**
 * `body` is page `page` of `limit` rows of `allIds` (page mode): those rows, a nextCursor exactly when rows follow,
 * and the exact total and page count when the request asked for them (`total=true`), null otherwise.
 */
export function expectPageOf(
  body: Page<{ id: string }>,
  allIds: readonly string[],
  page: number,
  limit: number,
  { counted = false } = {},
) {
  const total = counted ? allIds.length : null;
  const pages = counted ? Math.ceil(allIds.length / limit) : null;
  expect({ page: body.page, limit: body.limit, total: body.total, pages: body.pages }).toEqual({
    page,
    limit,
    total,
    pages,
  });
  expect(body.data.map((row) => row.id)).toEqual(allIds.slice((page - 1) * limit, page * limit));
  expect(body.nextCursor === null, "nextCursor is null exactly on the last page").toBe(page * limit >= allIds.length);
}

// ---- rows the tests own -------------------------------------------------------------------------------------

const RUN = randomBytes(4).toString("hex");
let counter = 0;
/** A value no other test (or earlier run on the same database) uses. */
export const unique = (prefix: string) => `${prefix}-${RUN}-${++counter}`;
export const uniqueEmail = (prefix = "user") => `${unique(prefix)}@contract.example.com`;

/** A user the admin creates (POST /users): a customer without a password, who cannot sign in. */
export async function createUser(target: Target, body: Record<string, unknown> = {}) {
  const res = await httpAs(target, "admin")
    .post("/users")
    .send({ email: uniqueEmail(), name: "Contract User", ...body });
  return expectJson(res, 201, User);
}

/** A customer of a check's own, with the `authorization` header of a token for it. */
export type Customer = User & { authorization: string };

/**
 * A customer for checks that need one, not a registration: the admin creates the user (POST /users) and the suite
 * signs its token with the run's secret, so no password is hashed (registration's scrypt is a third of a second of a
 * core, a hundred times a row). A run without the secret (URL mode without JWT_SECRET) registers one instead.
 */
export async function createCustomer(target: Target, body: { name?: string } = {}): Promise<Customer> {
  const name = body.name ?? "Contract Customer";
  if (contract.jwtSecret) {
    const user = await createUser(target, { email: uniqueEmail("customer"), name });
    return { ...user, authorization: bearerFor(contract.jwtSecret, user.id) };
  }
  const registration = { email: uniqueEmail("customer"), name, password: unique("pw") };
  const res = await http(target).post("/auth/register").send(registration);
  expectStatus(res, 201);
  return { ...parseWith(User, res.body.user), authorization: `Bearer ${res.body.token as string}` };
}

export async function createProduct(target: Target, body: Record<string, unknown> = {}) {
  const res = await httpAs(target, "admin")
    .post("/products")
    .send({ name: unique("Contract Product"), priceCents: 1234, stock: 50, ...body });
  return expectJson(res, 201, Product);
}

/** An order placed by `caller` (the order's user is always the caller: a seeded user or a customer). */
export async function createOrder(target: Target, caller: Caller, body: { productId: string; quantity: number }) {
  return expectJson(await httpAs(target, caller).post("/orders").send(body), 201, Order);
}

/** Creates an order of `caller`'s and walks it through the given statuses as the admin (each a 200). */
export async function orderIn(target: Target, caller: Caller, productId: string, path: readonly string[]) {
  let order = await createOrder(target, caller, { productId, quantity: 1 });
  for (const status of path) {
    order = expectJson(await httpAs(target, "admin").patch(`/orders/${order.id}`).send({ status }), 200, Order);
  }
  return order;
}

// ---- tokens ---------------------------------------------------------------------------------------------------

/** The suite's JWT_SECRET as jose takes it, to verify the tokens the implementations issue. */
export const secretKey = (secret: string) => new TextEncoder().encode(secret);

export const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
