// The differential battery's requests: unusual but possible requests, in the classes where HTTP frameworks
// differ by default, each written as the exact bytes sent. README "Edges of HTTP" states the decision for each
// class; `expect` pins it here (status, and the problem type when the answer is a problem), so that the battery
// checks the decision itself and not only that implementations agree with each other.
//
// Every request carries the admin's token unless it brings its own `authorization` (the battery is about HTTP,
// not about who may call a route: the admin may call every one) or is sent `signedIn: false`.
import { signToken } from "@api-ref/harness";

export interface EdgeContext {
  /** `host:port` of the target. */
  authority: string;
  /** A seeded user's id (tokens are signed for it) and a token the API issued itself would look like. */
  userId: string;
  jwtSecret: string;
  /** The `authorization` header every request carries by default: the seeded admin's token. */
  authorization: string;
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

/**
 * A request head with `host` (unless `host: false`), the admin's `authorization` (unless `signedIn: false` or the
 * headers bring their own) and the given headers, in order, and a body.
 */
export function request(
  ctx: EdgeContext,
  line: string,
  headers: Array<[string, string]> = [],
  body?: string | Buffer,
  options: { host?: boolean; contentLength?: boolean; signedIn?: boolean } = {},
): Buffer {
  const head = [line];
  if (options.host !== false) head.push(`host: ${ctx.authority}`);
  if (options.signedIn !== false && !headers.some(([name]) => name.toLowerCase() === "authorization"))
    head.push(`authorization: ${ctx.authorization}`);
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

/** POST /echo of a JSON body, framed only by the given headers (no content-length of its own). */
const echoFramedBy = (ctx: EdgeContext, headers: Array<[string, string]>, body: string) =>
  request(ctx, "POST /echo HTTP/1.1", [["content-type", "application/json"], ...headers], body, {
    contentLength: false,
  });
/** POST /echo of {"a":1} declared as the given content type. */
const echoTyped = (ctx: EdgeContext, contentType: string) => json(ctx, "/echo", '{"a":1}', contentType);

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

/** POST /orders for an unknown product: 422 when the body is valid, 400 when a field is not. */
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const order = (quantity: string) => `{"productId":"${UNKNOWN}","quantity":${quantity}}`;
const patchUnknownProduct = (ctx: EdgeContext, body: string) =>
  request(ctx, `PATCH /products/${UNKNOWN} HTTP/1.1`, [["content-type", "application/json"]], body);
const unprocessable = [{ status: 422, problem: "unprocessable" }];

const typedClaims: Array<[string, string]> = [
  ["a string", '"9999999999"'],
  ["null", "null"],
  ["true", "true"],
  ["false", "false"],
  ["an array", "[9999999999]"],
  ["an object", '{"t":9999999999}'],
];

type Expected = EdgeCase["expect"];

/** Cases of one class, each one request written at once: [name, the request's bytes, the decided answer]. */
function inClass(edge: EdgeClass, rows: Array<[string, (ctx: EdgeContext) => string | Buffer, Expected]>): EdgeCase[] {
  return rows.map(([name, bytes, expect]) => ({ edge, name, build: (ctx) => ({ bytes: bytes(ctx) }), expect }));
}

export const edgeCases: EdgeCase[] = [
  // ---- HTTP framing ------------------------------------------------------------------------------------------
  ...inClass("framing", [
    [
      "chunked body",
      (ctx) => echoFramedBy(ctx, [["transfer-encoding", "chunked"]], '4\r\n{"a"\r\n3\r\n:1}\r\n0\r\n\r\n'),
      ok,
    ],
    [
      "chunked body with a chunk extension",
      (ctx) => echoFramedBy(ctx, [["transfer-encoding", "chunked"]], '7;x=y\r\n{"a":1}\r\n0\r\n\r\n'),
      ok,
    ],
    [
      "both content-length and transfer-encoding: chunked",
      (ctx) =>
        echoFramedBy(
          ctx,
          [
            ["content-length", "7"],
            ["transfer-encoding", "chunked"],
          ],
          '7\r\n{"a":1}\r\n0\r\n\r\n',
        ),
      badRequest,
    ],
    [
      "two different content-length headers",
      (ctx) =>
        echoFramedBy(
          ctx,
          [
            ["content-length", "7"],
            ["content-length", "8"],
          ],
          '{"a":1} ',
        ),
      badRequest,
    ],
    ["content-length with a sign (+7)", (ctx) => echoFramedBy(ctx, [["content-length", "+7"]], '{"a":1}'), badRequest],
    [
      "transfer-encoding other than chunked (gzip)",
      (ctx) => echoFramedBy(ctx, [["transfer-encoding", "gzip"]], '{"a":1}'),
      badRequest,
    ],
    [
      "expect: 100-continue",
      (ctx) =>
        request(
          ctx,
          "POST /echo HTTP/1.1",
          [
            ["content-type", "application/json"],
            ["expect", "100-continue"],
          ],
          '{"a":1}',
        ),
      ok,
    ],
    [
      "chunked body with a chunk size that is not hex",
      (ctx) => echoFramedBy(ctx, [["transfer-encoding", "chunked"]], 'zz\r\n{"a":1}\r\n0\r\n\r\n'),
      badRequest,
    ],
    [
      "expect: 100-continue on a body refused for its media type",
      (ctx) =>
        request(
          ctx,
          "POST /echo HTTP/1.1",
          [
            ["content-type", "text/plain"],
            ["expect", "100-continue"],
          ],
          "hello",
        ),
      unsupported,
    ],
    [
      "an expectation other than 100-continue",
      (ctx) =>
        request(
          ctx,
          "POST /echo HTTP/1.1",
          [
            ["content-type", "application/json"],
            ["expect", "something-else"],
          ],
          '{"a":1}',
        ),
      [{ status: 417 }],
    ],
    [
      "a header folded over two lines (obs-fold)",
      (ctx) => `GET /health HTTP/1.1\r\nhost: ${ctx.authority}\r\nx-a: 1\r\n 2\r\nconnection: close\r\n\r\n`,
      badRequest,
    ],
    [
      "whitespace between a header name and its colon",
      (ctx) => `GET /health HTTP/1.1\r\nhost: ${ctx.authority}\r\nx-a : 1\r\nconnection: close\r\n\r\n`,
      badRequest,
    ],
    [
      "a control character in a header value",
      (ctx) => `GET /health HTTP/1.1\r\nhost: ${ctx.authority}\r\nx-a: 1\u00012\r\nconnection: close\r\n\r\n`,
      badRequest,
    ],
    ["HTTP/1.0 without host", (ctx) => request(ctx, "GET /health HTTP/1.0", [], undefined, { host: false }), ok],
    ["HTTP/1.1 without host", (ctx) => request(ctx, "GET /users HTTP/1.1", [], undefined, { host: false }), badRequest],
    ["two host headers (the first is used)", (ctx) => get(ctx, "/health", [["host", ctx.authority]]), ok],
  ]),
  {
    edge: "framing",
    name: "two pipelined GETs",
    build: (ctx) => ({
      bytes: `GET /health HTTP/1.1\r\nhost: ${ctx.authority}\r\n\r\nGET /users?limit=1 HTTP/1.1\r\nhost: ${ctx.authority}\r\nauthorization: ${ctx.authorization}\r\nconnection: close\r\n\r\n`,
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
  ...inClass("framing", [
    ["absolute-form target", (ctx) => get(ctx, `http://${ctx.authority}/health`), ok],
    ["unknown HTTP version (HTTP/1.2)", (ctx) => request(ctx, "GET /health HTTP/1.2"), badRequest],
  ]),
  // ---- media types ---------------------------------------------------------------------------------------------
  ...inClass("media type", [
    ["a list: application/json, text/plain", (ctx) => echoTyped(ctx, "application/json, text/plain"), unsupported],
    [
      "POST /users with a list: application/json, text/plain",
      (ctx) => json(ctx, "/users", "{}", "application/json, text/plain"),
      unsupported,
    ],
    ["upper case: APPLICATION/JSON; CHARSET=UTF-8", (ctx) => echoTyped(ctx, "APPLICATION/JSON; CHARSET=UTF-8"), ok],
    [
      'quoted charset: application/json;charset="utf-8"',
      (ctx) => echoTyped(ctx, 'application/json;charset="utf-8"'),
      ok,
    ],
    ["another parameter: application/json; foo=bar", (ctx) => echoTyped(ctx, "application/json; foo=bar"), ok],
    ["charset latin1", (ctx) => echoTyped(ctx, "application/json; charset=latin1"), unsupported],
    ["structured suffix: application/vnd.api+json", (ctx) => echoTyped(ctx, "application/vnd.api+json"), ok],
    ["text/json", (ctx) => echoTyped(ctx, "text/json"), unsupported],
    ["application/jsonx", (ctx) => echoTyped(ctx, "application/jsonx"), unsupported],
    ["no subtype: application/", (ctx) => echoTyped(ctx, "application/"), unsupported],
    [
      "accept: application/xml on a JSON route",
      (ctx) => get(ctx, "/users?limit=1", [["accept", "application/xml"]]),
      ok,
    ],
  ]),
  // ---- paths ---------------------------------------------------------------------------------------------------
  ...inClass("path", [
    ["encoded dot segment /users/%2e%2e/users", (ctx) => get(ctx, "/users/%2e%2e/users"), notFound],
    ["dot segment /users/../health", (ctx) => get(ctx, "/users/../health"), notFound],
    ["dot segment /./health", (ctx) => get(ctx, "/./health"), notFound],
    ["encoded unreserved character /%75sers", (ctx) => get(ctx, "/%75sers"), notFound],
    ["encoded slash /users%2f", (ctx) => get(ctx, "/users%2f"), notFound],
    ["double slash //users", (ctx) => get(ctx, "//users"), notFound],
    ["double slash inside /users//x", (ctx) => get(ctx, "/users//x"), notFound],
    ["matrix parameter /users;a=b", (ctx) => get(ctx, "/users;a=b"), notFound],
    ["matrix parameter on an id /users/<id>;a=b", (ctx) => get(ctx, `/users/${ctx.userId};a=b`), validation],
    ["upper-case hex id", (ctx) => get(ctx, `/users/${ctx.userId.toUpperCase()}`), ok],
    [
      "percent-encoded id",
      (ctx) => get(ctx, `/users/%${ctx.userId.charCodeAt(0).toString(16)}${ctx.userId.slice(1)}`),
      ok,
    ],
    ["undecodable id /users/%zz", (ctx) => get(ctx, "/users/%zz"), validation],
    ["id with an encoded NUL", (ctx) => get(ctx, `/users/${ctx.userId}%00`), validation],
    ["upper-case path /USERS", (ctx) => get(ctx, "/USERS"), notFound],
    ["asterisk-form target on GET", (ctx) => get(ctx, "*"), notFound],
  ]),
  // ---- query strings --------------------------------------------------------------------------------------------
  ...inClass("query", [
    ["empty query /health?", (ctx) => get(ctx, "/health?"), ok],
    ["encoded digit limit=%35", (ctx) => get(ctx, "/users?limit=%35"), ok],
    ["plus as space q=a+b", (ctx) => get(ctx, "/products?q=a+b"), ok],
    ["undecodable value q=%zz", (ctx) => get(ctx, "/products?q=%zz"), ok],
    ["truncated escape q=abc%", (ctx) => get(ctx, "/products?q=abc%"), ok],
    ["undecodable name %zz=1", (ctx) => get(ctx, "/products?%zz=1"), validation],
    ["invalid UTF-8 q=%C3%28", (ctx) => get(ctx, "/products?q=%C3%28"), ok],
    ["encoded lone surrogate q=%ED%A0%80", (ctx) => get(ctx, "/products?q=%ED%A0%80"), ok],
    ["emoji q=%F0%9F%98%80", (ctx) => get(ctx, "/products?q=%F0%9F%98%80"), ok],
    ["encoded NUL q=a%00b", (ctx) => get(ctx, "/products?q=a%00b"), validation],
    ["undecodable integer limit=%zz", (ctx) => get(ctx, "/users?limit=%zz"), validation],
    ["undecodable include on an order", (ctx) => get(ctx, `/orders/${UNKNOWN}?include=%E0`), validation],
    ["undecodable sort", (ctx) => get(ctx, "/products?sort=%zz"), validation],
    ["undecodable query on a route without query parameters", (ctx) => get(ctx, "/health?x=%zz"), ok],
    ["repeated parameter limit=1&limit=2", (ctx) => get(ctx, "/users?limit=1&limit=2"), validation],
    ["parameter without a value ?limit", (ctx) => get(ctx, "/users?limit"), validation],
  ]),
  // ---- sizes -----------------------------------------------------------------------------------------------------
  ...inClass("size", [
    [
      "header block of 40 KB",
      (ctx) => get(ctx, "/users?limit=1", [["x-filler", "a".repeat(40_000)]]),
      [{ status: 431 }],
    ],
    ["header block just under 16 KiB", (ctx) => get(ctx, "/health", [["x-filler", "a".repeat(15_500)]]), ok],
    [
      "many small headers over 16 KiB",
      (ctx) =>
        get(
          ctx,
          "/health",
          Array.from({ length: 400 }, (_, i) => [`x-h${i}`, "b".repeat(40)] as [string, string]),
        ),
      [{ status: 431 }],
    ],
    ["URL of 8,000 bytes (within the limit)", (ctx) => get(ctx, `/health?${"a".repeat(7_990)}`), ok],
    ["URL of 12,000 bytes (the head is still within 16 KiB)", (ctx) => get(ctx, `/health?${"a".repeat(12_000)}`), ok],
    [
      "URL of 20,000 bytes (the head is over 16 KiB)",
      (ctx) => get(ctx, `/users?${"a".repeat(20_000)}`),
      [{ status: 431 }],
    ],
  ]),
  // ---- JSON encodings ---------------------------------------------------------------------------------------------
  ...inClass("json", [
    [
      "UTF-8 byte-order mark before an object (/echo)",
      (ctx) => json(ctx, "/echo", Buffer.from('\uFEFF{"a":1}', "utf8")),
      ok,
    ],
    [
      "UTF-8 byte-order mark before {} (POST /users: reaches validation)",
      (ctx) => json(ctx, "/users", Buffer.from("\uFEFF{}", "utf8")),
      validation,
    ],
    ["two byte-order marks", (ctx) => json(ctx, "/echo", Buffer.from('\uFEFF\uFEFF{"a":1}', "utf8")), malformed],
    [
      "UTF-16LE with its byte-order mark",
      (ctx) => json(ctx, "/echo", Buffer.from('\uFEFF{"a":1}', "utf16le")),
      malformed,
    ],
    [
      "invalid UTF-8 inside a string",
      (ctx) => json(ctx, "/echo", Buffer.from([...Buffer.from('{"a":"'), 0xc3, 0x28, ...Buffer.from('"}')])),
      malformed,
    ],
    [
      "UTF-8-encoded surrogate inside a string",
      (ctx) => json(ctx, "/echo", Buffer.from([...Buffer.from('{"a":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')])),
      malformed,
    ],
    ["escaped lone surrogate \\ud800 (/echo)", (ctx) => json(ctx, "/echo", '{"a":"\\ud800"}'), ok],
    [
      "escaped lone surrogate in a user's name",
      (ctx) => json(ctx, "/users", '{"email":"not-an-email","name":"\\udc00","password":"x"}'),
      validation,
    ],
    ["duplicate keys", (ctx) => json(ctx, "/echo", '{"a":1,"a":2}'), ok],
    ["NaN literal", (ctx) => json(ctx, "/echo", '{"a":NaN}'), malformed],
    ["Infinity literal", (ctx) => json(ctx, "/echo", '{"a":Infinity}'), malformed],
    ["trailing comma", (ctx) => json(ctx, "/echo", '{"a":1,}'), malformed],
    ["a second value after the object", (ctx) => json(ctx, "/echo", '{"a":1} {"b":2}'), malformed],
    ["integer quantity 100", (ctx) => json(ctx, "/orders", order("100")), unprocessable],
    ["integer quantity written 1e2", (ctx) => json(ctx, "/orders", order("1e2")), unprocessable],
    ["integer quantity written 100.0", (ctx) => json(ctx, "/orders", order("100.0")), unprocessable],
    ["quantity 100.5", (ctx) => json(ctx, "/orders", order("100.5")), validation],
    ["quantity -0", (ctx) => json(ctx, "/orders", order("-0")), validation],
    [
      "-0 where 0 is allowed (priceCents of an unknown product: reaches the lookup)",
      (ctx) => patchUnknownProduct(ctx, '{"priceCents":-0}'),
      notFound,
    ],
    [
      "0.0 and 1e0 as integers (stock and priceCents of an unknown product)",
      (ctx) => patchUnknownProduct(ctx, '{"priceCents":0.0,"stock":1e0}'),
      notFound,
    ],
    ["quantity 2^53 + 1", (ctx) => json(ctx, "/orders", order("9007199254740993")), validation],
    ["quantity 1e400 (beyond a double)", (ctx) => json(ctx, "/orders", order("1e400")), validation],
    ["quantity as a string", (ctx) => json(ctx, "/orders", order('"1"')), validation],
    ["number beyond 2^53 in /echo", (ctx) => json(ctx, "/echo", '{"a":123456789012345678901234567890}'), ok],
  ]),
  // ---- JWT claims --------------------------------------------------------------------------------------------------
  ...inClass("jwt", [
    [
      "no authorization header",
      (ctx) => request(ctx, "GET /auth/me HTTP/1.1", [], undefined, { signedIn: false }),
      unauthorized,
    ],
    [
      "credentials under another scheme (Basic)",
      (ctx) => get(ctx, "/auth/me", [["authorization", `Basic ${Buffer.from("a@example.com:pw").toString("base64")}`]]),
      unauthorized,
    ],
    ["the scheme alone (Bearer)", (ctx) => get(ctx, "/auth/me", [["authorization", "Bearer"]]), unauthorized],
    ["valid claims (control)", (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${n + 600}}`), ok],
    ["exp with a fraction", (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${n + 600}.5}`), ok],
    ["exp written with an exponent (1e10)", (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":1e10}`), ok],
    ["exp in the past", (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n - 1200},"exp":${n - 600}}`), unauthorized],
    ["no exp", (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n}}`), unauthorized],
  ]),
  ...typedClaims.map(
    ([label, value]): EdgeCase => ({
      edge: "jwt",
      name: `exp as ${label}`,
      build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${value}}`) }),
      expect: unauthorized,
    }),
  ),
  ...inClass("jwt", [
    [
      "nbf in the future",
      (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n},"nbf":${n + 600},"exp":${n + 1200}}`),
      unauthorized,
    ],
    ["nbf in the past", (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n},"nbf":${n - 60},"exp":${n + 600}}`), ok],
  ]),
  ...typedClaims.map(
    ([label, value]): EdgeCase => ({
      edge: "jwt",
      name: `nbf as ${label}`,
      build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${n},"nbf":${value},"exp":${n + 600}}`) }),
      expect: unauthorized,
    }),
  ),
  ...inClass("jwt", [
    ["iat in the future", (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n + 3600},"exp":${n + 7200}}`), ok],
    ["no iat", (ctx) => me(ctx, (n) => `{"sub":"SUB","exp":${n + 600}}`), ok],
  ]),
  ...typedClaims.map(
    ([label, value]): EdgeCase => ({
      edge: "jwt",
      name: `iat as ${label}`,
      build: (ctx) => ({ bytes: me(ctx, (n) => `{"sub":"SUB","iat":${value},"exp":${n + 600}}`) }),
      expect: unauthorized,
    }),
  ),
  ...inClass("jwt", [
    ["sub as a number", (ctx) => me(ctx, (n) => `{"sub":1,"iat":${n},"exp":${n + 600}}`), unauthorized],
    ["claims that are not an object", (ctx) => me(ctx, () => "[1]"), unauthorized],
    [
      'alg "none"',
      (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${n + 600}}`, '{"alg":"none"}'),
      unauthorized,
    ],
    [
      "header naming HS512 over an HS256 signature",
      (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${n + 600}}`, '{"alg":"HS512","typ":"JWT"}'),
      unauthorized,
    ],
    [
      "critical header parameter",
      (ctx) => me(ctx, (n) => `{"sub":"SUB","iat":${n},"exp":${n + 600}}`, '{"alg":"HS256","crit":["x"],"x":1}'),
      unauthorized,
    ],
    [
      "lower-case scheme: bearer",
      (ctx) =>
        get(ctx, "/auth/me", [
          ["authorization", `bearer ${signToken(ctx.jwtSecret, `{"sub":"${ctx.userId}","exp":${now() + 600}}`)}`],
        ]),
      ok,
    ],
  ]),
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
  ...inClass("method", [
    ["OPTIONS /users", (ctx) => request(ctx, "OPTIONS /users HTTP/1.1"), notAllowed],
    ["OPTIONS *", (ctx) => request(ctx, "OPTIONS * HTTP/1.1"), notFound],
    ["TRACE /users", (ctx) => request(ctx, "TRACE /users HTTP/1.1"), notAllowed],
    ["PUT /users", (ctx) => request(ctx, "PUT /users HTTP/1.1", [], ""), notAllowed],
    [
      "a registered method the API never serves (PROPFIND)",
      (ctx) => request(ctx, "PROPFIND /users HTTP/1.1"),
      notAllowed,
    ],
    ["an unregistered method token (FOO)", (ctx) => request(ctx, "FOO /users HTTP/1.1"), badRequest],
    ["lower-case method (get)", (ctx) => request(ctx, "get /users HTTP/1.1"), badRequest],
    [
      "GET with a body",
      (ctx) => request(ctx, "GET /users?limit=1 HTTP/1.1", [["content-type", "text/plain"]], "hello"),
      ok,
    ],
    [
      "DELETE with a text/plain body on an unknown id",
      (ctx) => request(ctx, `DELETE /users/${UNKNOWN} HTTP/1.1`, [["content-type", "text/plain"]], "hello"),
      notFound,
    ],
    [
      "DELETE with a list content-type body on an unknown id",
      (ctx) =>
        request(ctx, `DELETE /users/${UNKNOWN} HTTP/1.1`, [["content-type", "application/json, text/plain"]], "{}"),
      notFound,
    ],
    [
      "DELETE of a product with a list content-type body",
      (ctx) =>
        request(ctx, `DELETE /products/${UNKNOWN} HTTP/1.1`, [["content-type", "application/json, text/plain"]], "{}"),
      notFound,
    ],
    [
      "DELETE with a JSON body on an unknown id",
      (ctx) => request(ctx, `DELETE /users/${UNKNOWN} HTTP/1.1`, [["content-type", "application/json"]], "{}"),
      notFound,
    ],
  ]),
];
