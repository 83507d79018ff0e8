// Requests for every route of the contract's table, valid ones built from its schemas and then, most of the time,
// mutated: wrong types, missing and extra fields, huge strings, NUL, Unicode edge cases, bad JSON, wrong content
// types, prototype keys, oversized and deeply nested bodies, bad query values, bad ids, wrong methods, unknown
// paths, bad headers and tokens. What each request must get is decided by the oracle, not here.
import { randomUUID } from "node:crypto";
import { jsonSchema, methodsByPath, type RouteSpec, routes } from "@api-ref/contract";
import { MISSING_ID, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { type Exchange, forgeToken } from "@api-ref/harness";
import fc from "fast-check";
import { arbitraryOf, type JsonSchema, type Overrides } from "./schema-arbitrary.ts";

/** Rows of the fault's database that valid requests refer to. */
export interface Pools {
  userIds: string[];
  productIds: string[];
  orderIds: string[];
  emails: string[];
  /** A bearer token of a user that exists (registered before the run). */
  token: string;
  /** Its user id, and the JWT secret (to mint expired and foreign tokens). */
  tokenUserId: string;
  jwtSecret: string;
}

/** A request before it is put on the wire: the parts mutations work on. */
export interface Draft {
  route: RouteSpec;
  method: string;
  /** The path with `:id` filled in, already encoded. */
  pathname: string;
  query: Array<[string, string]>;
  /** A query string sent exactly as is, instead of `query` (for malformed encodings). */
  rawQuery?: string;
  headers: Record<string, string>;
  /** A JSON value, or raw bytes sent as they are. */
  body?: { json: unknown } | { raw: string | Buffer };
  /** What was done to it (empty for a request generated as valid). */
  mutations: string[];
}

export interface GeneratedRequest {
  exchange: Exchange;
  label: string;
  mutations: string[];
}

const JSON_TYPE = "application/json";

// ---- tokens -----------------------------------------------------------------------------------------------------

function badAuthorizations(pools: Pools): string[] {
  const now = Math.floor(Date.now() / 1000);
  const [h, p, sig] = pools.token.split(".");
  const flip = (s = "") => (s.length > 4 ? `${s.slice(0, 2)}${s[2] === "A" ? "B" : "A"}${s.slice(3)}` : `${s}A`);
  return [
    "",
    "Bearer",
    "Bearer ",
    `bearer${pools.token}`,
    `Basic ${Buffer.from("a:b").toString("base64")}`,
    `Bearer ${h}.${flip(p)}.${sig}`,
    `Bearer ${h}.${p}.${flip(sig)}`,
    `Bearer ${pools.token}x`,
    `Bearer ${forgeToken(pools.jwtSecret, pools.tokenUserId, { issuedAt: now - 7200, expiresAt: now - 3600 })}`,
    `Bearer ${forgeToken(pools.jwtSecret, MISSING_ID)}`,
    `Bearer ${forgeToken(pools.jwtSecret, "not-a-uuid")}`,
    `Bearer ${forgeToken(pools.jwtSecret, pools.tokenUserId, { alg: "none" })}`,
    `Bearer ${forgeToken("another-secret-of-32-characters!", pools.tokenUserId)}`,
    `Bearer ${"x".repeat(5000)}`,
  ];
}

// ---- valid requests -----------------------------------------------------------------------------------------------

let uniqueCounter = 0;
const uniqueEmail = () => `fz-${randomUUID().slice(0, 8)}-${++uniqueCounter}@faults.example.com`;

function overridesFor(pools: Pools): Overrides {
  const existingOrMissing = (ids: string[]) =>
    fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: fc.constantFrom(MISSING_ID) });
  const pageLike = (max: number) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1, max }).map(String) },
      { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{1,10}$/) },
    );
  const email = fc.oneof(
    { weight: 3, arbitrary: fc.constant(null).map(() => uniqueEmail()) },
    { weight: 1, arbitrary: fc.constantFrom(...pools.emails) },
    { weight: 1, arbitrary: fc.emailAddress().filter((e) => e.length <= 254) },
  );
  const price = fc.integer({ min: 0, max: 100_000_000 }).map(String);
  return {
    "query.page": pageLike(60),
    "query.limit": pageLike(100),
    "query.minPriceCents": price,
    "query.maxPriceCents": price,
    "query.userId": existingOrMissing(pools.userIds),
    "query.productId": existingOrMissing(pools.productIds),
    "body.userId": existingOrMissing(pools.userIds),
    "body.productId": existingOrMissing(pools.productIds),
    "body.email": email,
    "body.password": fc.oneof(fc.constant(SEED_PASSWORD), fc.string({ minLength: 8, maxLength: 40 })),
  };
}

const pathIdFor = (route: RouteSpec, pools: Pools): fc.Arbitrary<string> => {
  const resource = route.path.split("/")[1];
  const ids = resource === "users" ? pools.userIds : resource === "products" ? pools.productIds : pools.orderIds;
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...ids) },
    { weight: 1, arbitrary: fc.constantFrom(MISSING_ID) },
    { weight: 1, arbitrary: fc.uuid().map((id) => id.toUpperCase()) },
  );
};

/** A valid request for `route` (valid by construction; the oracle still has the last word). */
function validDraft(route: RouteSpec, pools: Pools, overrides: Overrides): fc.Arbitrary<Draft> {
  const schemaOf = (s: RouteSpec["query"]) => (s ? (jsonSchema(s, "input") as JsonSchema) : undefined);
  const query = schemaOf(route.query);
  const body = schemaOf(route.body);
  const parts = {
    id: route.params ? pathIdFor(route, pools) : fc.constant(undefined),
    query: query ? arbitraryOf(query, "query", overrides) : fc.constant(undefined),
    body: body ? arbitraryOf(body, "body", overrides) : fc.constant(undefined),
    idempotencyKey: route.idempotencyKey
      ? fc.option(
          fc.constant(null).map(() => `fz-${randomUUID()}`),
          { nil: undefined },
        )
      : fc.constant(undefined),
  };
  return fc.record(parts).map(({ id, query: q, body: b, idempotencyKey }) => {
    const headers: Record<string, string> = {};
    if (b !== undefined) headers["content-type"] = JSON_TYPE;
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    if (route.auth) headers.authorization = `Bearer ${pools.token}`;
    return {
      route,
      method: route.method,
      pathname: route.path.replace(":id", encodeURIComponent(id ?? "")),
      query: Object.entries((q as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [k, String(v)]),
      headers,
      ...(b !== undefined ? { body: { json: b } } : {}),
      mutations: [],
    };
  });
}

// ---- mutations ------------------------------------------------------------------------------------------------

/** Strings that have broken parsers, databases and length checks before. */
export const UNICODE_EDGES = [
  "\u202Egnp.exe", // right-to-left override
  "\u200B", // zero-width space
  "\uFEFF", // byte-order mark as a character
  "e\u0301", // combining acute accent
  "🙂",
  "👩‍👩‍👧‍👦", // a family: one grapheme, seven code points
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", // astral letters
  "\u2028\u2029", // line and paragraph separators
  "Ａ１", // fullwidth
  "İ", // lower-cases to two code points
  "\uD800", // a lone high surrogate
  "\uDFFF", // a lone low surrogate
  "\u00A0 ", // no-break space around nothing
  "\u0085", // next line (C1)
  "'; DROP TABLE users; --",
  "%00",
  "\\u0000",
  "<script>alert(1)</script>",
  "../../etc/passwd",
];

const WRONG_TYPES: unknown[] = [null, true, 0, -1, 1.5, "", "5", [], [1], {}, { a: 1 }];
const SERVER_FIELDS = ["id", "createdAt", "updatedAt", "totalCents", "unitPriceCents", "passwordHash", "status"];

type Mutation = (draft: Draft) => fc.Arbitrary<Draft>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const jsonBody = (d: Draft) => (d.body && "json" in d.body && isObject(d.body.json) ? d.body.json : undefined);
const withBody = (d: Draft, body: Draft["body"], mutation: string, headers?: Record<string, string>): Draft => ({
  ...d,
  body,
  headers: { ...d.headers, ...headers },
  mutations: [...d.mutations, mutation],
});
const stringFields = (o: Record<string, unknown>) => Object.keys(o).filter((k) => typeof o[k] === "string");
const numberFields = (o: Record<string, unknown>) => Object.keys(o).filter((k) => typeof o[k] === "number");
const serialize = (value: unknown, raw: Record<string, string> = {}) => {
  let text = JSON.stringify(value);
  for (const [marker, replacement] of Object.entries(raw)) text = text.replace(`"${marker}"`, replacement);
  return text;
};

const bodyMutations: Array<[string, Mutation]> = [
  [
    "drop a field",
    (d) => {
      const o = jsonBody(d);
      const keys = o ? Object.keys(o) : [];
      return keys.length === 0
        ? fc.constant(d)
        : fc.constantFrom(...keys).map((k) => {
            const { [k]: _, ...rest } = o as Record<string, unknown>;
            return withBody(d, { json: rest }, `body.${k}: dropped`);
          });
    },
  ],
  [
    "extra field",
    (d) =>
      fc
        .tuple(
          fc.oneof(fc.constantFrom(...SERVER_FIELDS), fc.string({ minLength: 1, maxLength: 10 })),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map(([k, v]) => withBody(d, { json: { ...(jsonBody(d) ?? {}), [k]: v } }, `body.${k}: added`)),
  ],
  [
    "wrong type",
    (d) => {
      const o = jsonBody(d);
      const keys = o ? Object.keys(o) : [];
      return keys.length === 0
        ? fc.constant(d)
        : fc
            .tuple(fc.constantFrom(...keys), fc.constantFrom(...WRONG_TYPES))
            .map(([k, v]) => withBody(d, { json: { ...o, [k]: v } }, `body.${k}: ${JSON.stringify(v)}`));
    },
  ],
  [
    "huge string",
    (d) => {
      const o = jsonBody(d);
      const keys = o ? stringFields(o) : [];
      return keys.length === 0
        ? fc.constant(d)
        : fc
            .tuple(fc.constantFrom(...keys), fc.integer({ min: 101, max: 400_000 }), fc.constantFrom("x", "é", "🙂"))
            .map(([k, n, c]) => withBody(d, { json: { ...o, [k]: c.repeat(n) } }, `body.${k}: ${n} × ${c}`));
    },
  ],
  [
    "NUL",
    (d) => {
      const o = jsonBody(d);
      const keys = o ? stringFields(o) : [];
      return keys.length === 0
        ? fc.constant(d)
        : fc
            .constantFrom(...keys)
            .map((k) => withBody(d, { json: { ...o, [k]: `${String(o?.[k]).slice(0, 5)}\u0000x` } }, `body.${k}: NUL`));
    },
  ],
  [
    "unicode edge",
    (d) => {
      const o = jsonBody(d);
      const keys = o ? stringFields(o) : [];
      return keys.length === 0
        ? fc.constant(d)
        : fc
            .tuple(
              fc.constantFrom(...keys),
              fc.constantFrom(...UNICODE_EDGES),
              fc.constantFrom("replace", "append", "repeat"),
            )
            .map(([k, edge, how]) => {
              const old = String(o?.[k]);
              const value = how === "replace" ? edge : how === "append" ? `${old}${edge}` : edge.repeat(60);
              return withBody(d, { json: { ...o, [k]: value } }, `body.${k}: ${how} ${JSON.stringify(edge)}`);
            });
    },
  ],
  [
    "number edge",
    (d) => {
      const o = jsonBody(d);
      const keys = o ? numberFields(o) : [];
      return keys.length === 0
        ? fc.constant(d)
        : fc
            .tuple(
              fc.constantFrom(...keys),
              fc.constantFrom(
                "1.0",
                "1e0",
                "1e2",
                "-0",
                "1e400",
                "-1",
                "1.5",
                "2147483648",
                "9007199254740993",
                "0x10",
              ),
            )
            .map(([k, raw]) =>
              withBody(d, { raw: serialize({ ...o, [k]: "__RAW__" }, { __RAW__: raw }) }, `body.${k}: ${raw}`),
            );
    },
  ],
  [
    "bad JSON",
    (d) =>
      fc
        .tuple(
          fc.constantFrom(
            "truncate",
            "trailing comma",
            "single quotes",
            "comment",
            "NaN",
            "unquoted key",
            "garbage after",
          ),
          fc.nat(),
        )
        .map(([how, n]) => {
          const text = serialize(jsonBody(d) ?? {});
          const broken =
            how === "truncate"
              ? text.slice(0, Math.max(1, n % text.length))
              : how === "trailing comma"
                ? text.replace(/}$/, ",}")
                : how === "single quotes"
                  ? text.replace(/"/g, "'")
                  : how === "comment"
                    ? `/* x */${text}`
                    : how === "NaN"
                      ? text.replace(/}$/, `${text.length > 2 ? "," : ""}"n":NaN}`)
                      : how === "unquoted key"
                        ? text.replace(/^\{"([^"]+)"/, "{$1")
                        : `${text}x`;
          return withBody(d, { raw: broken }, `body: ${how}`);
        }),
  ],
  [
    "not an object",
    (d) =>
      fc
        .constantFrom("[]", '[{"a":1}]', '"text"', "null", "42", "true", "")
        .map((text) => withBody(d, { raw: text }, `body: ${text === "" ? "empty" : text}`)),
  ],
  [
    "content type",
    (d) =>
      fc
        .constantFrom(
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/xml",
          "multipart/form-data; boundary=x",
          "application/json; charset=latin1",
          "application/json; charset=utf-16",
          "text/json",
          "application/jsonx",
          "application/merge-patch+json",
          "application/json; charset=utf-8",
        )
        .map((type) =>
          withBody(d, { raw: serialize(jsonBody(d) ?? {}) }, `content-type: ${type}`, { "content-type": type }),
        ),
  ],
  [
    "content encoding",
    (d) =>
      fc.constantFrom("gzip", "br", "deflate", "identity", "x-unknown").map((encoding) =>
        withBody(d, { raw: serialize(jsonBody(d) ?? {}) }, `content-encoding: ${encoding}`, {
          "content-encoding": encoding,
        }),
      ),
  ],
  [
    "prototype keys",
    (d) =>
      fc
        .constantFrom(
          '"__proto__":{"isAdmin":true}',
          '"constructor":{"prototype":{"polluted":1}}',
          '"x":{"y":[{"__proto__":{"z":1}}]}',
        )
        .map((member) => {
          const text = serialize(jsonBody(d) ?? {});
          return withBody(
            d,
            { raw: text === "{}" ? `{${member}}` : text.replace(/^\{/, `{${member},`) },
            `body: ${member}`,
          );
        }),
  ],
  [
    "oversized",
    (d) =>
      fc.integer({ min: 1, max: 5000 }).map((extra) => {
        const text = serialize({ ...(jsonBody(d) ?? {}), filler: "" });
        const pad = 1024 * 1024 - text.length + extra;
        return withBody(
          d,
          { raw: text.replace('"filler":""', `"filler":"${"x".repeat(pad)}"`) },
          `body: 1 MiB + ${extra} bytes`,
        );
      }),
  ],
  [
    "deep nesting",
    (d) =>
      fc
        .integer({ min: 100, max: 200_000 })
        .map((depth) =>
          withBody(d, { raw: `{"deep":${"[".repeat(depth)}${"]".repeat(depth)}}` }, `body: nested ${depth} deep`),
        ),
  ],
  ["byte-order mark", (d) => fc.constant(withBody(d, { raw: `\uFEFF${serialize(jsonBody(d) ?? {})}` }, "body: BOM"))],
  [
    "invalid UTF-8",
    (d) => {
      const o = jsonBody(d);
      const keys = o ? stringFields(o) : [];
      return keys.length === 0
        ? fc.constant(d)
        : fc.constantFrom(...keys).map((k) => {
            const text = serialize({ ...o, [k]: "__BYTES__" });
            const [before = "", after = ""] = text.split('"__BYTES__"');
            const raw = Buffer.concat([
              Buffer.from(`${before}"a`),
              Buffer.from([0xff, 0xfe, 0xc3]),
              Buffer.from(`b"${after}`),
            ]);
            return withBody(d, { raw }, `body.${k}: invalid UTF-8`);
          });
    },
  ],
];

const BAD_QUERY_VALUES = [
  "",
  "abc",
  "0",
  "-1",
  "1.5",
  "1e1",
  "0x2",
  " 1",
  "+2",
  "1000001",
  "101",
  "99999999999",
  "true",
  "\u0000",
  "🙂",
];

const queryMutations: Array<[string, Mutation]> = [
  [
    "bad query value",
    (d) =>
      fc
        .tuple(
          fc.constantFrom("page", "limit", "q", "sort", "inStock", "status", "include", "userId", "minPriceCents"),
          fc.constantFrom(...BAD_QUERY_VALUES),
        )
        .map(([k, v]) => ({
          ...d,
          query: [...d.query.filter(([qk]) => qk !== k), [k, v]],
          mutations: [...d.mutations, `query.${k}=${JSON.stringify(v)}`],
        })),
  ],
  [
    "repeated query parameter",
    (d) =>
      fc.constantFrom("page", "limit", "q", "include", "status").map((k) => ({
        ...d,
        query: [...d.query, [k, "1"], [k, "2"]],
        mutations: [...d.mutations, `query.${k} twice`],
      })),
  ],
  [
    "unknown query parameter",
    (d) =>
      fc.constantFrom("foo", "__proto__", "constructor", "sort[$ne]", "a.b", "PAGE").map((k) => ({
        ...d,
        query: [...d.query, [k, "1"]],
        mutations: [...d.mutations, `query.${k} (unknown)`],
      })),
  ],
  [
    "long or unicode search",
    (d) =>
      fc
        .oneof(
          fc.integer({ min: 90, max: 5000 }).map((n) => "q".repeat(n)),
          fc.constantFrom(...UNICODE_EDGES.filter((e) => !/[\uD800-\uDFFF]/.test(e) || e.length > 1)),
        )
        .map((q) => ({
          ...d,
          query: [...d.query.filter(([k]) => k !== "q"), ["q", q]],
          mutations: [...d.mutations, `query.q: ${q.length > 20 ? `${q.length} characters` : JSON.stringify(q)}`],
        })),
  ],
  [
    "malformed percent-encoding",
    (d) =>
      fc.constantFrom("page=%zz", "q=%E0%A4", "q=%", "limit=%2", "q=a%00b").map((raw) => ({
        ...d,
        rawQuery: raw,
        mutations: [...d.mutations, `query: ${raw}`],
      })),
  ],
];

// Not "." or "..", nor an encoded "/": whether a framework normalises those before routing is left open.
const BAD_IDS = [
  "not-a-uuid",
  "123",
  "00000000-0000-4000-8000-00000000000",
  "00000000000040008000000000000001",
  `${MISSING_ID}x`,
  "%00",
  "%F0%9F%99%82",
  "%zz",
  "%E0%A4",
  "null",
  "undefined",
  "-1",
  "%20",
];
/** Random path segments: letters, digits and a few safe marks, so that no router has anything to decode. */
const safeSegment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,30}$/);

const requestMutations: Array<[string, Mutation]> = [
  [
    "bad path id",
    (d) =>
      d.route.params
        ? fc.oneof(fc.constantFrom(...BAD_IDS), safeSegment).map((id) => ({
            ...d,
            pathname: d.route.path.replace(":id", id),
            mutations: [...d.mutations, `params.id: ${id}`],
          }))
        : fc.constant(d),
  ],
  [
    "wrong method",
    (d) => {
      // Only methods the path does not serve: a body on a GET is something the contract says nothing about.
      const served = methodsByPath.get(d.route.path) ?? [];
      // QUERY is the draft RFC's safe method with a body: routers that know it are the ones that mishandle it.
      const unserved = ["PUT", "PATCH", "DELETE", "POST", "GET", "OPTIONS", "QUERY", "PROPFIND"].filter(
        (m) => !served.includes(m),
      );
      return fc
        .constantFrom(...unserved)
        .map((method) => ({ ...d, method, mutations: [...d.mutations, `method ${method}`] }));
    },
  ],
  [
    "unknown path",
    (d) =>
      fc
        .oneof(
          fc.constantFrom(
            `${d.pathname}/`,
            d.pathname.toUpperCase(),
            `/api${d.pathname}`,
            `${d.pathname}/extra`,
            "/nowhere",
          ),
          safeSegment.map((segment) => `/${segment}`),
        )
        .map((pathname) => ({ ...d, pathname, mutations: [...d.mutations, `path ${pathname}`] })),
  ],
  [
    "bad idempotency key",
    (d) =>
      d.route.idempotencyKey
        ? fc.constantFrom("", " ", "k".repeat(256), "with space", "caf\u00e9", "tab\there").map((key) => ({
            ...d,
            headers: { ...d.headers, "idempotency-key": key },
            mutations: [
              ...d.mutations,
              `idempotency-key: ${JSON.stringify(key.length > 20 ? `${key.length} characters` : key)}`,
            ],
          }))
        : fc.constant(d),
  ],
  [
    "random x-request-id",
    (d) =>
      fc
        .oneof(
          fc.stringMatching(/^[A-Za-z0-9._-]{1,128}$/),
          fc.string({ maxLength: 200, unit: "binary-ascii" }).filter((s) => /^[\t\x20-\x7e]*$/.test(s)),
        )
        .map((id) => ({
          ...d,
          headers: { ...d.headers, "x-request-id": id },
          mutations: [...d.mutations, `x-request-id: ${JSON.stringify(id.slice(0, 30))}`],
        })),
  ],
];

function authMutation(pools: Pools): [string, Mutation] {
  const bad = badAuthorizations(pools);
  return [
    "bad token",
    (d) =>
      d.route.auth
        ? fc.constantFrom(...bad).map((authorization) => {
            const headers = { ...d.headers, authorization };
            if (authorization === "") delete (headers as Record<string, string>).authorization;
            return {
              ...d,
              headers,
              mutations: [...d.mutations, `authorization: ${authorization.slice(0, 40) || "(none)"}`],
            };
          })
        : fc.constant(d),
  ];
}

// ---- putting it together ----------------------------------------------------------------------------------------

export function toExchange(d: Draft): Exchange {
  const search = d.rawQuery ?? d.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  const body = d.body === undefined ? undefined : "raw" in d.body ? d.body.raw : JSON.stringify(d.body.json);
  return {
    method: d.method,
    path: search ? `${d.pathname}?${search}` : d.pathname,
    headers: d.headers,
    ...(body !== undefined ? { body } : {}),
  };
}

/**
 * Requests for every route: about one in four as generated (valid), the rest with one or two mutations that fit
 * the route (body mutations on routes with a body, query mutations on routes with a query, and so on).
 */
export function requestArbitrary(pools: Pools): fc.Arbitrary<GeneratedRequest> {
  const overrides = overridesFor(pools);
  const auth = authMutation(pools);
  // A body mutation works on a JSON body: once a body is raw bytes, later body mutations leave it alone.
  const onJson = ([name, m]: [string, Mutation]): [string, Mutation] => [
    name,
    (d) => (d.body && "raw" in d.body ? fc.constant(d) : m(d)),
  ];
  const perRoute = routes.map((route) => {
    const applicable = [
      ...(route.body ? bodyMutations.map(onJson) : []),
      ...(route.query ? queryMutations : []),
      ...requestMutations.filter(([name]) => name !== "bad path id" || route.params),
      ...(route.auth ? [auth] : []),
    ];
    const mutate = (d: Draft, times: number): fc.Arbitrary<Draft> =>
      times === 0
        ? fc.constant(d)
        : fc
            .constantFrom(...applicable)
            .chain(([, m]) => m(d))
            .chain((next) => mutate(next, times - 1));
    return validDraft(route, pools, overrides).chain((draft) =>
      fc
        .oneof(
          { weight: 1, arbitrary: fc.constant(0) },
          { weight: 2, arbitrary: fc.constant(1) },
          { weight: 1, arbitrary: fc.constant(2) },
        )
        .chain((n) => mutate(draft, n)),
    );
  });
  return fc.oneof(...perRoute).map((d) => ({
    exchange: toExchange(d),
    label: `${d.route.method} ${d.route.path}${d.mutations.length ? `: ${d.mutations.join(", ")}` : " (as generated)"}`,
    mutations: d.mutations,
  }));
}
