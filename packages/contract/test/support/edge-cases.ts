// The differential battery's requests: unusual but possible requests, in the classes where HTTP frameworks
// differ by default, each written as the exact bytes sent. README "Edges of HTTP" states the decision for each
// class; `expect` pins it here (status, and the problem type when the answer is a problem), so that the battery
// checks the decision itself and not only that implementations agree with each other.
import { signToken } from "@api-ref/harness";

export interface EdgeContext {
  /** `host:port` of the target. */
  authority: string;
  /** A seeded user's id (tokens are signed for it) and a token the API issued itself would look like. */
  userId: string;
  jwtSecret: string;
}

export interface EdgeRequest {
  /** The bytes written, in one write unless `pieces` is given. */
  bytes: string | Buffer;
  /** Responses expected on the connection (pipelining), default 1. */
  responses?: number;
  /** Methods of the pipelined requests, for HEAD (no body). */
  methods?: string[];
}

export interface EdgeCase {
  /** The class of edge (one README decision per class). */
  edge: EdgeClass;
  name: string;
  build(ctx: EdgeContext): EdgeRequest;
  /** The decided answer: one entry per response (status and, for problems, the problem type's last segment). */
  expect: Array<{ status: number; problem?: string }>;
}

export type EdgeClass = "framing" | "media type" | "path" | "query" | "size" | "json" | "jwt" | "method";

const CRLF = "\r\n";

/** A request head with `host` (unless `host: null`) and the given headers, in order, and a body. */
export function request(
  ctx: EdgeContext,
  line: string,
  headers: Array<[string, string]> = [],
  body?: string | Buffer,
  options: { host?: boolean; contentLength?: boolean } = {},
): Buffer {
  const head = [line];
  if (options.host !== false) head.push(`host: ${ctx.authority}`);
  for (const [name, value] of headers) head.push(`${name}: ${value}`);
  const bytes = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
  if (bytes && options.contentLength !== false) head.push(`content-length: ${bytes.length}`);
  head.push("connection: close");
  return Buffer.concat([Buffer.from(head.join(CRLF) + CRLF + CRLF, "latin1"), bytes ?? Buffer.alloc(0)]);
}

const json = (ctx: EdgeContext, path: string, body: string | Buffer, contentType = "application/json") =>
  request(ctx, `POST ${path} HTTP/1.1`, [["content-type", contentType]], body);
const get = (ctx: EdgeContext, target: string, headers: Array<[string, string]> = []) =>
  request(ctx, `GET ${target} HTTP/1.1`, headers);

const now = () => Math.floor(Date.now() / 1000);
const me = (ctx: EdgeContext, claims: (n: number) => string, header?: string) =>
  get(ctx, "/auth/me", [
    [
      "authorization",
      `Bearer ${signToken(ctx.jwtSecret, claims(now()).replace("SUB", ctx.userId), header === undefined ? {} : { header })}`,
    ],
  ]);

const ok = [{ status: 200 }];
const validation = [{ status: 400, problem: "validation-error" }];
const malformed = [{ status: 400, problem: "malformed-json" }];
const notFound = [{ status: 404, problem: "not-found" }];
const unsupported = [{ status: 415, problem: "unsupported-media-type" }];
const unauthorized = [{ status: 401, problem: "unauthorized" }];
const notAllowed = [{ status: 405, problem: "method-not-allowed" }];
/** Rejected by the HTTP parser before any route runs: a 400, whatever its body. */
const badRequest = [{ status: 400 }];

/** POST /orders for unknown user and product: 422 when the body is valid, 400 when a field is not. */
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const order = (quantity: string) => `{"userId":"${UNKNOWN}","productId":"${UNKNOWN}","quantity":${quantity}}`;
const unprocessable = [{ status: 422, problem: "unprocessable" }];

const typedClaims: Array<[string, string]> = [
  ["a string", '"9999999999"'],
  ["null", "null"],
  ["true", "true"],
  ["false", "false"],
  ["an array", "[9999999999]"],
  ["an object", '{"t":9999999999}'],
];

export const edgeCases: EdgeCase[] = [
  // ---- HTTP framing ------------------------------------------------------------------------------------------
  {
    edge: "framing",
    name: "chunked body",
    build: (ctx) => ({
      bytes: request(
        ctx,
        "POST /echo HTTP/1.1",
        [
          ["content-type", "application/json"],
          ["transfer-encoding", "chunked"],
        ],
        '4\r\n{"a"\r\n3\r\n:1}\r\n0\r\n\r\n',
        { contentLength: false },
      ),
    }),
    expect: ok,
  },
  {
    edge: "framing",
    name: "chunked body with a chunk extension",
    build: (ctx) => ({
      bytes: request(
        ctx,
        "POST /echo HTTP/1.1",
        [
          ["content-type", "application/json"],
          ["transfer-encoding", "chunked"],
        ],
        '7;x=y\r\n{"a":1}\r\n0\r\n\r\n',
        { contentLength: false },
      ),
    }),
    expect: ok,
  },
  {
    edge: "framing",
    name: "both content-length and transfer-encoding: chunked",
    build: (ctx) => ({
      bytes: request(
        ctx,
        "POST /echo HTTP/1.1",
        [
          ["content-type", "application/json"],
          ["content-length", "7"],
          ["transfer-encoding", "chunked"],
        ],
        '7\r\n{"a":1}\r\n0\r\n\r\n',
        { contentLength: false },
      ),
    }),
    expect: badRequest,
  },
  {
    edge: "framing",
    name: "two different content-length headers",
    build: (ctx) => ({
      bytes: request(
        ctx,
        "POST /echo HTTP/1.1",
        [
          ["content-type", "application/json"],
          ["content-length", "7"],
          ["content-length", "8"],
        ],
        '{"a":1} ',
        { contentLength: false },
      ),
    }),
    expect: badRequest,
  },
  {
    edge: "framing",
    name: "content-length with a sign (+7)",
    build: (ctx) => ({
      bytes: request(
        ctx,
        "POST /echo HTTP/1.1",
        [
          ["content-type", "application/json"],
          ["content-length", "+7"],
        ],
        '{"a":1}',
        { contentLength: false },
      ),
    }),
    expect: badRequest,
  },
  {
    edge: "framing",
    name: "transfer-encoding other than chunked (gzip)",
    build: (ctx) => ({
      bytes: request(
        ctx,
        "POST /echo HTTP/1.1",
        [
          ["content-type", "application/json"],
          ["transfer-encoding", "gzip"],
        ],
        '{"a":1}',
        { contentLength: false },
      ),
    }),
    expect: badRequest,
  },
  {
    edge: "framing",
    name: "expect: 100-continue",
    build: (ctx) => ({
      bytes: request(
        ctx,
        "POST /echo HTTP/1.1",
        [
          ["content-type", "application/json"],
          ["expect", "100-continue"],
        ],
        '{"a":1}',
      ),
    }),
    expect: ok,
  },
  {
    edge: "framing",
    name: "chunked body with a chunk size that is not hex",
    build: (ctx) => ({
      bytes: request(
        ctx,
        "POST /echo HTTP/1.1",
        [
          ["content-type", "application/json"],
          ["transfer-encoding", "chunked"],
        ],
        'zz\r\n{"a":1}\r\n0\r\n\r\n',
        { contentLength: false },
      ),
    }),
    expect: badRequest,
  },
  {
    edge: "framing",
    name: "expect: 100-continue on a body refused for its media type",
    build: (ctx) => ({
      bytes: request(
        ctx,
        "POST /echo HTTP/1.1",
        [
          ["content-type", "text/plain"],
          ["expect", "100-continue"],
        ],
        "hello",
      ),
    }),
    expect: unsupported,
  },
  {
    edge: "framing",
    name: "an expectation other than 100-continue",
    build: (ctx) => ({
      bytes: request(
        ctx,
        "POST /echo HTTP/1.1",
        [
          ["content-type", "application/json"],
          ["expect", "something-else"],
        ],
        '{"a":1}',
      ),
    }),
    expect: [{ status: 417 }],
  },
  {
    edge: "framing",
    name: "a header folded over two lines (obs-fold)",
    build: (ctx) => ({
      bytes: `GET /health HTTP/1.1\r\nhost: ${ctx.authority}\r\nx-a: 1\r\n 2\r\nconnection: close\r\n\r\n`,
    }),
    expect: badRequest,
  },
  {
    edge: "framing",
    name: "whitespace between a header name and its colon",
    build: (ctx) => ({
      bytes: `GET /health HTTP/1.1\r\nhost: ${ctx.authority}\r\nx-a : 1\r\nconnection: close\r\n\r\n`,
    }),
    expect: badRequest,
  },
  {
    edge: "framing",
    name: "a control character in a header value",
    build: (ctx) => ({
      bytes: `GET /health HTTP/1.1\r\nhost: ${ctx.authority}\r\nx-a: 1\u00012\r\nconnection: close\r\n\r\n`,
    }),
    expect: badRequest,
  },
  {
    edge: "framing",
    name: "HTTP/1.0 without host",
    build: (ctx) => ({ bytes: request(ctx, "GET /health HTTP/1.0", [], undefined, { host: false }) }),
    expect: ok,
  },
  {
    edge: "framing",
    name: "HTTP/1.1 without host",
    build: (ctx) => ({ bytes: request(ctx, "GET /users HTTP/1.1", [], undefined, { host: false }) }),
    expect: badRequest,
  },
  {
    edge: "framing",
    name: "two host headers (the first is used)",
    build: (ctx) => ({ bytes: get(ctx, "/health", [["host", ctx.authority]]) }),
    expect: ok,
  },
  {
    edge: "framing",
    name: "two pipelined GETs",
    build: (ctx) => ({
      bytes: `GET /health HTTP/1.1\r\nhost: ${ctx.authority}\r\n\r\nGET /users?limit=1 HTTP/1.1\r\nhost: ${ctx.authority}\r\nconnection: close\r\n\r\n`,
      responses: 2,
    }),
    expect: [{ status: 200 }, { status: 200 }],
  },
  {
    edge: "framing",
    name: "pipelined POST with a body, then HEAD",
    build: (ctx) => ({
      bytes: `POST /echo HTTP/1.1\r\nhost: ${ctx.authority}\r\ncontent-type: application/json\r\ncontent-length: 7\r\n\r\n{"a":1}HEAD /health HTTP/1.1\r\nhost: ${ctx.authority}\r\nconnection: close\r\n\r\n`,
      responses: 2,
      methods: ["POST", "HEAD"],
    }),
    expect: [{ status: 200 }, { status: 200 }],
  },
  {
    edge: "framing",
    name: "absolute-form target",
    build: (ctx) => ({ bytes: get(ctx, `http://${ctx.authority}/health`) }),
    expect: ok,
  },
  {
    edge: "framing",
    name: "unknown HTTP version (HTTP/1.2)",
    build: (ctx) => ({ bytes: request(ctx, "GET /health HTTP/1.2") }),
    expect: badRequest,
  },
  // ---- media types ---------------------------------------------------------------------------------------------
  {
    edge: "media type",
    name: "a list: application/json, text/plain",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1}', "application/json, text/plain") }),
    expect: unsupported,
  },
  {
    edge: "media type",
    name: "POST /users with a list: application/json, text/plain",
    build: (ctx) => ({ bytes: json(ctx, "/users", "{}", "application/json, text/plain") }),
    expect: unsupported,
  },
  {
    edge: "media type",
    name: "upper case: APPLICATION/JSON; CHARSET=UTF-8",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1}', "APPLICATION/JSON; CHARSET=UTF-8") }),
    expect: ok,
  },
  {
    edge: "media type",
    name: 'quoted charset: application/json;charset="utf-8"',
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1}', 'application/json;charset="utf-8"') }),
    expect: ok,
  },
  {
    edge: "media type",
    name: "another parameter: application/json; foo=bar",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1}', "application/json; foo=bar") }),
    expect: ok,
  },
  {
    edge: "media type",
    name: "charset latin1",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1}', "application/json; charset=latin1") }),
    expect: unsupported,
  },
  {
    edge: "media type",
    name: "structured suffix: application/vnd.api+json",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1}', "application/vnd.api+json") }),
    expect: ok,
  },
  {
    edge: "media type",
    name: "text/json",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1}', "text/json") }),
    expect: unsupported,
  },
  {
    edge: "media type",
    name: "application/jsonx",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1}', "application/jsonx") }),
    expect: unsupported,
  },
  {
    edge: "media type",
    name: "no subtype: application/",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1}', "application/") }),
    expect: unsupported,
  },
  {
    edge: "media type",
    name: "accept: application/xml on a JSON route",
    build: (ctx) => ({ bytes: get(ctx, "/users?limit=1", [["accept", "application/xml"]]) }),
    expect: ok,
  },
  // ---- paths ---------------------------------------------------------------------------------------------------
  {
    edge: "path",
    name: "encoded dot segment /users/%2e%2e/users",
    build: (ctx) => ({ bytes: get(ctx, "/users/%2e%2e/users") }),
    expect: notFound,
  },
  {
    edge: "path",
    name: "dot segment /users/../health",
    build: (ctx) => ({ bytes: get(ctx, "/users/../health") }),
    expect: notFound,
  },
  {
    edge: "path",
    name: "dot segment /./health",
    build: (ctx) => ({ bytes: get(ctx, "/./health") }),
    expect: notFound,
  },
  {
    edge: "path",
    name: "encoded unreserved character /%75sers",
    build: (ctx) => ({ bytes: get(ctx, "/%75sers") }),
    expect: notFound,
  },
  {
    edge: "path",
    name: "encoded slash /users%2f",
    build: (ctx) => ({ bytes: get(ctx, "/users%2f") }),
    expect: notFound,
  },
  {
    edge: "path",
    name: "double slash //users",
    build: (ctx) => ({ bytes: get(ctx, "//users") }),
    expect: notFound,
  },
  {
    edge: "path",
    name: "double slash inside /users//x",
    build: (ctx) => ({ bytes: get(ctx, "/users//x") }),
    expect: notFound,
  },
  {
    edge: "path",
    name: "matrix parameter /users;a=b",
    build: (ctx) => ({ bytes: get(ctx, "/users;a=b") }),
    expect: notFound,
  },
  {
    edge: "path",
    name: "matrix parameter on an id /users/<id>;a=b",
    build: (ctx) => ({ bytes: get(ctx, `/users/${ctx.userId};a=b`) }),
    expect: validation,
  },
  {
    edge: "path",
    name: "upper-case hex id",
    build: (ctx) => ({ bytes: get(ctx, `/users/${ctx.userId.toUpperCase()}`) }),
    expect: ok,
  },
  {
    edge: "path",
    name: "percent-encoded id",
    build: (ctx) => ({ bytes: get(ctx, `/users/%${ctx.userId.charCodeAt(0).toString(16)}${ctx.userId.slice(1)}`) }),
    expect: ok,
  },
  {
    edge: "path",
    name: "undecodable id /users/%zz",
    build: (ctx) => ({ bytes: get(ctx, "/users/%zz") }),
    expect: validation,
  },
  {
    edge: "path",
    name: "id with an encoded NUL",
    build: (ctx) => ({ bytes: get(ctx, `/users/${ctx.userId}%00`) }),
    expect: validation,
  },
  {
    edge: "path",
    name: "upper-case path /USERS",
    build: (ctx) => ({ bytes: get(ctx, "/USERS") }),
    expect: notFound,
  },
  {
    edge: "path",
    name: "asterisk-form target on GET",
    build: (ctx) => ({ bytes: get(ctx, "*") }),
    expect: notFound,
  },
  // ---- query strings --------------------------------------------------------------------------------------------
  {
    edge: "query",
    name: "empty query /health?",
    build: (ctx) => ({ bytes: get(ctx, "/health?") }),
    expect: ok,
  },
  {
    edge: "query",
    name: "encoded digit limit=%35",
    build: (ctx) => ({ bytes: get(ctx, "/users?limit=%35") }),
    expect: ok,
  },
  {
    edge: "query",
    name: "plus as space q=a+b",
    build: (ctx) => ({ bytes: get(ctx, "/products?q=a+b") }),
    expect: ok,
  },
  {
    edge: "query",
    name: "undecodable value q=%zz",
    build: (ctx) => ({ bytes: get(ctx, "/products?q=%zz") }),
    expect: ok,
  },
  {
    edge: "query",
    name: "truncated escape q=abc%",
    build: (ctx) => ({ bytes: get(ctx, "/products?q=abc%") }),
    expect: ok,
  },
  {
    edge: "query",
    name: "undecodable name %zz=1",
    build: (ctx) => ({ bytes: get(ctx, "/products?%zz=1") }),
    expect: validation,
  },
  {
    edge: "query",
    name: "invalid UTF-8 q=%C3%28",
    build: (ctx) => ({ bytes: get(ctx, "/products?q=%C3%28") }),
    expect: ok,
  },
  {
    edge: "query",
    name: "encoded lone surrogate q=%ED%A0%80",
    build: (ctx) => ({ bytes: get(ctx, "/products?q=%ED%A0%80") }),
    expect: ok,
  },
  {
    edge: "query",
    name: "emoji q=%F0%9F%98%80",
    build: (ctx) => ({ bytes: get(ctx, "/products?q=%F0%9F%98%80") }),
    expect: ok,
  },
  {
    edge: "query",
    name: "encoded NUL q=a%00b",
    build: (ctx) => ({ bytes: get(ctx, "/products?q=a%00b") }),
    expect: validation,
  },
  {
    edge: "query",
    name: "undecodable integer limit=%zz",
    build: (ctx) => ({ bytes: get(ctx, "/users?limit=%zz") }),
    expect: validation,
  },
  {
    edge: "query",
    name: "undecodable include on an order",
    build: (ctx) => ({ bytes: get(ctx, `/orders/${UNKNOWN}?include=%E0`) }),
    expect: validation,
  },
  {
    edge: "query",
    name: "undecodable sort",
    build: (ctx) => ({ bytes: get(ctx, "/products?sort=%zz") }),
    expect: validation,
  },
  {
    edge: "query",
    name: "undecodable query on a route without query parameters",
    build: (ctx) => ({ bytes: get(ctx, "/health?x=%zz") }),
    expect: ok,
  },
  {
    edge: "query",
    name: "repeated parameter limit=1&limit=2",
    build: (ctx) => ({ bytes: get(ctx, "/users?limit=1&limit=2") }),
    expect: validation,
  },
  {
    edge: "query",
    name: "parameter without a value ?limit",
    build: (ctx) => ({ bytes: get(ctx, "/users?limit") }),
    expect: validation,
  },
  // ---- sizes -----------------------------------------------------------------------------------------------------
  {
    edge: "size",
    name: "header block of 40 KB",
    build: (ctx) => ({ bytes: get(ctx, "/users?limit=1", [["x-filler", "a".repeat(40_000)]]) }),
    expect: [{ status: 431 }],
  },
  {
    edge: "size",
    name: "header block just under 16 KiB",
    build: (ctx) => ({ bytes: get(ctx, "/health", [["x-filler", "a".repeat(15_500)]]) }),
    expect: ok,
  },
  {
    edge: "size",
    name: "many small headers over 16 KiB",
    build: (ctx) => ({
      bytes: get(
        ctx,
        "/health",
        Array.from({ length: 400 }, (_, i) => [`x-h${i}`, "b".repeat(40)] as [string, string]),
      ),
    }),
    expect: [{ status: 431 }],
  },
  {
    edge: "size",
    name: "URL of 8,000 bytes (within the limit)",
    build: (ctx) => ({ bytes: get(ctx, `/health?${"a".repeat(7_990)}`) }),
    expect: ok,
  },
  {
    edge: "size",
    name: "URL of 12,000 bytes (the head is still within 16 KiB)",
    build: (ctx) => ({ bytes: get(ctx, `/health?${"a".repeat(12_000)}`) }),
    expect: ok,
  },
  {
    edge: "size",
    name: "URL of 20,000 bytes (the head is over 16 KiB)",
    build: (ctx) => ({ bytes: get(ctx, `/users?${"a".repeat(20_000)}`) }),
    expect: [{ status: 431 }],
  },
  // ---- JSON encodings ---------------------------------------------------------------------------------------------
  {
    edge: "json",
    name: "UTF-8 byte-order mark before an object (/echo)",
    build: (ctx) => ({ bytes: json(ctx, "/echo", Buffer.from('\uFEFF{"a":1}', "utf8")) }),
    expect: ok,
  },
  {
    edge: "json",
    name: "UTF-8 byte-order mark before {} (POST /users: reaches validation)",
    build: (ctx) => ({ bytes: json(ctx, "/users", Buffer.from("\uFEFF{}", "utf8")) }),
    expect: validation,
  },
  {
    edge: "json",
    name: "two byte-order marks",
    build: (ctx) => ({ bytes: json(ctx, "/echo", Buffer.from('\uFEFF\uFEFF{"a":1}', "utf8")) }),
    expect: malformed,
  },
  {
    edge: "json",
    name: "UTF-16LE with its byte-order mark",
    build: (ctx) => ({ bytes: json(ctx, "/echo", Buffer.from('\uFEFF{"a":1}', "utf16le")) }),
    expect: malformed,
  },
  {
    edge: "json",
    name: "invalid UTF-8 inside a string",
    build: (ctx) => ({
      bytes: json(ctx, "/echo", Buffer.from([...Buffer.from('{"a":"'), 0xc3, 0x28, ...Buffer.from('"}')])),
    }),
    expect: malformed,
  },
  {
    edge: "json",
    name: "UTF-8-encoded surrogate inside a string",
    build: (ctx) => ({
      bytes: json(ctx, "/echo", Buffer.from([...Buffer.from('{"a":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')])),
    }),
    expect: malformed,
  },
  {
    edge: "json",
    name: "escaped lone surrogate \\ud800 (/echo)",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":"\\ud800"}') }),
    expect: ok,
  },
  {
    edge: "json",
    name: "escaped lone surrogate in a user's name",
    build: (ctx) => ({
      bytes: json(ctx, "/users", '{"email":"not-an-email","name":"\\udc00","password":"x"}'),
    }),
    expect: validation,
  },
  {
    edge: "json",
    name: "duplicate keys",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1,"a":2}') }),
    expect: ok,
  },
  {
    edge: "json",
    name: "NaN literal",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":NaN}') }),
    expect: malformed,
  },
  {
    edge: "json",
    name: "Infinity literal",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":Infinity}') }),
    expect: malformed,
  },
  {
    edge: "json",
    name: "trailing comma",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1,}') }),
    expect: malformed,
  },
  {
    edge: "json",
    name: "a second value after the object",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":1} {"b":2}') }),
    expect: malformed,
  },
  {
    edge: "json",
    name: "integer quantity 100",
    build: (ctx) => ({ bytes: json(ctx, "/orders", order("100")) }),
    expect: unprocessable,
  },
  {
    edge: "json",
    name: "integer quantity written 1e2",
    build: (ctx) => ({ bytes: json(ctx, "/orders", order("1e2")) }),
    expect: unprocessable,
  },
  {
    edge: "json",
    name: "integer quantity written 100.0",
    build: (ctx) => ({ bytes: json(ctx, "/orders", order("100.0")) }),
    expect: unprocessable,
  },
  {
    edge: "json",
    name: "quantity 100.5",
    build: (ctx) => ({ bytes: json(ctx, "/orders", order("100.5")) }),
    expect: validation,
  },
  {
    edge: "json",
    name: "quantity -0",
    build: (ctx) => ({ bytes: json(ctx, "/orders", order("-0")) }),
    expect: validation,
  },
  {
    edge: "json",
    name: "-0 where 0 is allowed (priceCents of an unknown product: reaches the lookup)",
    build: (ctx) => ({
      bytes: request(
        ctx,
        `PATCH /products/${UNKNOWN} HTTP/1.1`,
        [["content-type", "application/json"]],
        '{"priceCents":-0}',
      ),
    }),
    expect: notFound,
  },
  {
    edge: "json",
    name: "0.0 and 1e0 as integers (stock and priceCents of an unknown product)",
    build: (ctx) => ({
      bytes: request(
        ctx,
        `PATCH /products/${UNKNOWN} HTTP/1.1`,
        [["content-type", "application/json"]],
        '{"priceCents":0.0,"stock":1e0}',
      ),
    }),
    expect: notFound,
  },
  {
    edge: "json",
    name: "quantity 2^53 + 1",
    build: (ctx) => ({ bytes: json(ctx, "/orders", order("9007199254740993")) }),
    expect: validation,
  },
  {
    edge: "json",
    name: "quantity 1e400 (beyond a double)",
    build: (ctx) => ({ bytes: json(ctx, "/orders", order("1e400")) }),
    expect: validation,
  },
  {
    edge: "json",
    name: "quantity as a string",
    build: (ctx) => ({ bytes: json(ctx, "/orders", order('"1"')) }),
    expect: validation,
  },
  {
    edge: "json",
    name: "number beyond 2^53 in /echo",
    build: (ctx) => ({ bytes: json(ctx, "/echo", '{"a":123456789012345678901234567890}') }),
    expect: ok,
  },
  // ---- JWT claims --------------------------------------------------------------------------------------------------
  {
    edge: "jwt",
    name: "valid claims (control)",
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${n + 600}}`) }),
    expect: ok,
  },
  {
    edge: "jwt",
    name: "exp with a fraction",
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${n + 600}.5}`) }),
    expect: ok,
  },
  {
    edge: "jwt",
    name: "exp written with an exponent (1e10)",
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":1e10}`) }),
    expect: ok,
  },
  {
    edge: "jwt",
    name: "exp in the past",
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n - 1200},"exp":${n - 600}}`) }),
    expect: unauthorized,
  },
  {
    edge: "jwt",
    name: "no exp",
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n}}`) }),
    expect: unauthorized,
  },
  ...typedClaims.map(
    ([label, value]): EdgeCase => ({
      edge: "jwt",
      name: `exp as ${label}`,
      build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${value}}`) }),
      expect: unauthorized,
    }),
  ),
  {
    edge: "jwt",
    name: "nbf in the future",
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"nbf":${n + 600},"exp":${n + 1200}}`) }),
    expect: unauthorized,
  },
  {
    edge: "jwt",
    name: "nbf in the past",
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"nbf":${n - 60},"exp":${n + 600}}`) }),
    expect: ok,
  },
  ...typedClaims.map(
    ([label, value]): EdgeCase => ({
      edge: "jwt",
      name: `nbf as ${label}`,
      build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"nbf":${value},"exp":${n + 600}}`) }),
      expect: unauthorized,
    }),
  ),
  {
    edge: "jwt",
    name: "iat in the future",
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n + 3600},"exp":${n + 7200}}`) }),
    expect: ok,
  },
  {
    edge: "jwt",
    name: "no iat",
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","exp":${n + 600}}`) }),
    expect: ok,
  },
  ...typedClaims.map(
    ([label, value]): EdgeCase => ({
      edge: "jwt",
      name: `iat as ${label}`,
      build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${value},"exp":${n + 600}}`) }),
      expect: unauthorized,
    }),
  ),
  {
    edge: "jwt",
    name: "sub as a number",
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":1,"iat":${n},"exp":${n + 600}}`) }),
    expect: unauthorized,
  },
  {
    edge: "jwt",
    name: "claims that are not an object",
    build: (ctx) => ({ bytes: me(ctx, () => "[1]") }),
    expect: unauthorized,
  },
  {
    edge: "jwt",
    name: 'alg "none"',
    build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${n + 600}}`, '{"alg":"none"}') }),
    expect: unauthorized,
  },
  {
    edge: "jwt",
    name: "header naming HS512 over an HS256 signature",
    build: (ctx) => ({
      bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${n + 600}}`, '{"alg":"HS512","typ":"JWT"}'),
    }),
    expect: unauthorized,
  },
  {
    edge: "jwt",
    name: "critical header parameter",
    build: (ctx) => ({
      bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${n + 600}}`, '{"alg":"HS256","crit":["x"],"x":1}'),
    }),
    expect: unauthorized,
  },
  {
    edge: "jwt",
    name: "lower-case scheme: bearer",
    build: (ctx) => ({
      bytes: get(ctx, "/auth/me", [
        ["authorization", `bearer ${signToken(ctx.jwtSecret, `{"sub":"${ctx.userId}","exp":${now() + 600}}`)}`],
      ]),
    }),
    expect: ok,
  },
  // ---- methods -----------------------------------------------------------------------------------------------------
  {
    edge: "method",
    name: "HEAD /users",
    build: (ctx) => ({ bytes: request(ctx, "HEAD /users?limit=1 HTTP/1.1"), methods: ["HEAD"] }),
    expect: ok,
  },
  {
    edge: "method",
    name: "HEAD on a POST-only path",
    build: (ctx) => ({ bytes: request(ctx, "HEAD /echo HTTP/1.1"), methods: ["HEAD"] }),
    expect: [{ status: 405 }],
  },
  {
    edge: "method",
    name: "HEAD on an unknown path",
    build: (ctx) => ({ bytes: request(ctx, "HEAD /nowhere HTTP/1.1"), methods: ["HEAD"] }),
    expect: [{ status: 404 }],
  },
  {
    edge: "method",
    name: "OPTIONS /users",
    build: (ctx) => ({ bytes: request(ctx, "OPTIONS /users HTTP/1.1") }),
    expect: notAllowed,
  },
  {
    edge: "method",
    name: "OPTIONS *",
    build: (ctx) => ({ bytes: request(ctx, "OPTIONS * HTTP/1.1") }),
    expect: notFound,
  },
  {
    edge: "method",
    name: "TRACE /users",
    build: (ctx) => ({ bytes: request(ctx, "TRACE /users HTTP/1.1") }),
    expect: notAllowed,
  },
  {
    edge: "method",
    name: "PUT /users",
    build: (ctx) => ({ bytes: request(ctx, "PUT /users HTTP/1.1", [], "") }),
    expect: notAllowed,
  },
  {
    edge: "method",
    name: "a registered method the API never serves (PROPFIND)",
    build: (ctx) => ({ bytes: request(ctx, "PROPFIND /users HTTP/1.1") }),
    expect: notAllowed,
  },
  {
    edge: "method",
    name: "an unregistered method token (FOO)",
    build: (ctx) => ({ bytes: request(ctx, "FOO /users HTTP/1.1") }),
    expect: badRequest,
  },
  {
    edge: "method",
    name: "lower-case method (get)",
    build: (ctx) => ({ bytes: request(ctx, "get /users HTTP/1.1") }),
    expect: badRequest,
  },
  {
    edge: "method",
    name: "GET with a body",
    build: (ctx) => ({ bytes: request(ctx, "GET /users?limit=1 HTTP/1.1", [["content-type", "text/plain"]], "hello") }),
    expect: ok,
  },
  {
    edge: "method",
    name: "DELETE with a text/plain body on an unknown id",
    build: (ctx) => ({
      bytes: request(ctx, `DELETE /users/${UNKNOWN} HTTP/1.1`, [["content-type", "text/plain"]], "hello"),
    }),
    expect: notFound,
  },
  {
    edge: "method",
    name: "DELETE with a list content-type body on an unknown id",
    build: (ctx) => ({
      bytes: request(
        ctx,
        `DELETE /users/${UNKNOWN} HTTP/1.1`,
        [["content-type", "application/json, text/plain"]],
        "{}",
      ),
    }),
    expect: notFound,
  },
  {
    edge: "method",
    name: "DELETE of a product with a list content-type body",
    build: (ctx) => ({
      bytes: request(
        ctx,
        `DELETE /products/${UNKNOWN} HTTP/1.1`,
        [["content-type", "application/json, text/plain"]],
        "{}",
      ),
    }),
    expect: notFound,
  },
  {
    edge: "method",
    name: "DELETE with a JSON body on an unknown id",
    build: (ctx) => ({
      bytes: request(ctx, `DELETE /users/${UNKNOWN} HTTP/1.1`, [["content-type", "application/json"]], "{}"),
    }),
    expect: notFound,
  },
];
