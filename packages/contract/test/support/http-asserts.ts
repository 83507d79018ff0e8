// Assertions and small builders shared by the routes and errors contract files: one place that knows what a
// JSON success, a problem response and a page of a list must look like on the wire.
import { randomBytes } from "node:crypto";
import net from "node:net";
import { SignJWT, UnsecuredJWT } from "jose";
import type { Response } from "supertest";
import { expect } from "vitest";
import { z } from "zod";
import { Order, PROBLEMS, Problem, type ProblemKind, Product, REQUEST_ID_PATTERN, User } from "../../src/index.ts";
import { contract, http, sql } from "../targets.ts";

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

/** The response body of a HEAD, 204 etc., as the bytes on the wire (a client library would hide them). */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Sends one request over a plain socket, exactly as given (no content-length unless `body` is given, so a POST
 * can carry no body at all), and returns exactly what came back (`connection: close`).
 *
 * A server may answer before it has read the whole body and close the connection (Fastify and uvicorn do so for
 * a body over the limit, so as not to read what they will refuse). A large body is therefore sent the way a
 * careful client sends it, reading while writing and stopping once answered; and should a write still fail
 * (EPIPE, ECONNRESET), a complete response already received is returned: the answer is what counts.
 */
export function rawRequest(
  target: { url: string },
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
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
  return new Promise<RawResponse>((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error(`${method} ${path}: no complete response in 15 s`)));
    socket.on("connect", () => {
      if (body === undefined || Buffer.byteLength(body) <= LARGE_BODY_BYTES) {
        socket.write(body === undefined ? head : head + body);
        return;
      }
      // A large body goes as a client that reads while it writes: the head first, a pause in which a server that
      // refuses on the head alone (413) answers, then the body in pieces, stopped as soon as an answer arrives.
      // Written in one piece, the rest of it reached a server that had answered and closed, whose reset could
      // discard its answer before it was read (EPIPE on the write instead of the 413).
      socket.write(head);
      const bytes = Buffer.from(body);
      let at = 0;
      const next = () => {
        if (chunks.length > 0 || socket.destroyed || at >= bytes.length) return;
        const piece = bytes.subarray(at, at + LARGE_BODY_PIECE_BYTES);
        at += piece.length;
        socket.write(piece, () => next());
      };
      setTimeout(next, EARLY_ANSWER_WAIT_MS);
    });
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      const early = error.code === "EPIPE" || error.code === "ECONNRESET";
      const response = early ? parseResponse(Buffer.concat(chunks), method) : undefined;
      if (response?.complete) resolve(response.response);
      else reject(error);
    });
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const parsed = parseResponse(all, method);
      if (parsed === undefined) reject(new Error(`${method} ${path}: no header terminator in ${all.toString()}`));
      else resolve(parsed.response);
    });
  });
}

/** Bodies above this are sent in pieces (see rawRequest). */
const LARGE_BODY_BYTES = 64 * 1024;
const LARGE_BODY_PIECE_BYTES = 64 * 1024;
/** How long a large body waits after the head for a server that answers on the head alone. */
const EARLY_ANSWER_WAIT_MS = 250;

/** The response in `all`, and whether all of its body is there (by content-length or the last chunk). */
function parseResponse(all: Buffer, method: string): { response: RawResponse; complete: boolean } | undefined {
  const split = all.indexOf("\r\n\r\n");
  if (split < 0) return undefined;
  const [statusLine = "", ...lines] = all.subarray(0, split).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let rest: Buffer = all.subarray(split + 4);
  const chunked = /chunked/i.test(headers["transfer-encoding"] ?? "");
  const declared = headers["content-length"] === undefined ? undefined : Number(headers["content-length"]);
  const complete =
    method === "HEAD" ||
    (chunked
      ? rest.includes("\r\n0\r\n\r\n") || rest.subarray(0, 5).equals(Buffer.from("0\r\n\r\n"))
      : declared !== undefined && rest.length >= declared);
  if (chunked) rest = dechunk(rest);
  return { response: { status: Number(statusLine.split(" ")[1]), headers, body: rest }, complete };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf("\r\n", at);
    if (eol < 0) break;
    const size = Number.parseInt(data.subarray(at, eol).toString("latin1"), 16);
    if (!size) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** A raw response in the shape the assertions above read (status, headers, parsed body, text). */
export function asResponse(raw: RawResponse, method: string, path: string): Response {
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
  const res = await http(target).get(`/orders?productId=${productId}&limit=1`);
  expectStatus(res, 200);
  return res.body.total as number;
}

/** ISO 8601 with milliseconds, as the API prints timestamps. */
export const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

/** The API's JSON for a users row selected with `USER_COLUMNS`. */
export const USER_COLUMNS = "id, email, name, created_at, updated_at";
export const userJson = (row: Record<string, unknown>) => ({
  id: row.id,
  email: row.email,
  name: row.name,
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
export function expectPageOf(
  body: { data: Array<{ id: string }>; page: number; limit: number; total: number; pages: number },
  allIds: readonly string[],
  page: number,
  limit: number,
) {
  expect({ page: body.page, limit: body.limit, total: body.total, pages: body.pages }).toEqual({
    page,
    limit,
    total: allIds.length,
    pages: Math.ceil(allIds.length / limit),
  });
  expect(body.data.map((row) => row.id)).toEqual(allIds.slice((page - 1) * limit, page * limit));
}

// ---- rows the tests own -------------------------------------------------------------------------------------

const RUN = randomBytes(4).toString("hex");
let counter = 0;
/** A value no other test (or earlier run on the same database) uses. */
export const unique = (prefix: string) => `${prefix}-${RUN}-${++counter}`;
export const uniqueEmail = (prefix = "user") => `${unique(prefix)}@contract.example.com`;

export async function createUser(target: Target, body: Record<string, unknown> = {}) {
  const res = await http(target)
    .post("/users")
    .send({ email: uniqueEmail(), name: "Contract User", ...body });
  return expectJson(res, 201, User);
}

export async function createProduct(target: Target, body: Record<string, unknown> = {}) {
  const res = await http(target)
    .post("/products")
    .send({ name: unique("Contract Product"), priceCents: 1234, stock: 50, ...body });
  return expectJson(res, 201, Product);
}

export async function createOrder(target: Target, body: { userId: string; productId: string; quantity: number }) {
  return expectJson(await http(target).post("/orders").send(body), 201, Order);
}

/** Creates an order and walks it through the given statuses (each a 200). */
export async function orderIn(target: Target, base: { userId: string; productId: string }, path: readonly string[]) {
  let order = await createOrder(target, { ...base, quantity: 1 });
  for (const status of path) {
    order = expectJson(await http(target).patch(`/orders/${order.id}`).send({ status }), 200, Order);
  }
  return order;
}

// ---- tokens ---------------------------------------------------------------------------------------------------

export const secretKey = (secret: string) => new TextEncoder().encode(secret);

/** A JWT for `sub`, by default valid for an hour, HS256 with the suite's JWT_SECRET. */
export function forgeToken(
  sub: string,
  options: { alg?: string; secret?: string; issuedAt?: number; expiresAt?: number } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const alg = options.alg ?? "HS256";
  const issuedAt = options.issuedAt ?? now;
  const expiresAt = options.expiresAt ?? now + 3600;
  if (alg === "none") {
    return Promise.resolve(
      new UnsecuredJWT({}).setSubject(sub).setIssuedAt(issuedAt).setExpirationTime(expiresAt).encode(),
    );
  }
  return new SignJWT({})
    .setProtectedHeader({ alg, typ: "JWT" })
    .setSubject(sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(secretKey(options.secret ?? contract.jwtSecret));
}

export const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
