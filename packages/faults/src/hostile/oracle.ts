// What the contract says a request must get, decided from the request as sent (method, path, query string,
// headers, body bytes) and the contract's own route table and Zod schemas — never from how the request was
// generated. The check order is the contract's: unknown path (404) → method (405) → the caller (401 without a
// valid token of an existing user, 403 for a customer on an admin's route) → content type (415) → size (413) →
// JSON syntax (400 malformed-json) → params, query, body, headers (400 validation-error) → the route's own outcomes
// (its success, and the state-dependent statuses the route table lists) — for a customer, only their own rows:
// another user's is a 404, any order status but `cancelled` a 403 (docs/api.md, "Authorization").
//
// The edges the contract decides (README "Edges of HTTP" in packages/contract) are judged strictly: a body is
// UTF-8 with at most one byte-order mark, else malformed JSON; an escaped lone surrogate is a string like any
// other. Where it still leaves room, every reasonable answer is allowed and the reason is recorded (`lenient`):
// malformed percent-encoding in a query (kept as written, where implementations may decode a part of it).
// (String lengths need no such allowance: Zod 4 counts code points, as JSON Schema does.)
import { methodsByPath, PROBLEMS, type Role, type RouteSpec, routes } from "@api-ref/contract";
import type { Exchange } from "@api-ref/harness";
import type { z } from "zod";

export const MAX_BODY_BYTES = 1024 * 1024;
/** JSON nested deeper than this (arrays and objects) is malformed JSON; this deep is accepted. */
export const MAX_JSON_DEPTH = 1000;

/**
 * The `www-authenticate` a refusal must carry (RFC 6750 §3): `missing` — plain `Bearer`, the request had no bearer
 * token; `invalid_token` — the token it had was refused; `insufficient_scope` — the caller's role may not; `any` —
 * a `Bearer` challenge, where the contract does not say which.
 */
export type Challenge = "missing" | "invalid_token" | "insufficient_scope" | "any";

export interface Answer {
  status: number;
  /** For errors, the problem `type` it must carry. */
  type?: string;
  challenge?: Challenge;
}

export interface Expected {
  /** Acceptable answers: a status, and for errors the problem `type` it must carry. */
  answers: Answer[];
  /** The route template the request hit, when it hit one. */
  template?: string;
  /** Why more than the strict answer is allowed, when the contract is silent. */
  lenient?: string;
  /** A customer's request: every row a success answers with must be this user's (or be this user). */
  owner?: string;
}

const problemOf = (kind: keyof typeof PROBLEMS) => ({ status: PROBLEMS[kind].status, type: PROBLEMS[kind].type });
const TYPE_BY_STATUS = new Map<number, string>([
  [401, PROBLEMS.unauthorized.type],
  [403, PROBLEMS.forbidden.type],
  [404, PROBLEMS.notFound.type],
  [409, PROBLEMS.conflict.type],
  [422, PROBLEMS.unprocessable.type],
]);

/** The route template a path matches (`/users/:id` for `/users/abc`), case-sensitive, no trailing slash. */
export function matchTemplate(pathname: string): string | undefined {
  const segments = pathname.split("/");
  for (const template of methodsByPath.keys()) {
    const parts = template.split("/");
    if (parts.length !== segments.length) continue;
    if (parts.every((p, i) => (p.startsWith(":") ? (segments[i] ?? "") !== "" : p === segments[i]))) return template;
  }
  return undefined;
}

/** True for the media types the contract treats as JSON: application/json and application/*+json, UTF-8 only. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const [type = "", ...params] = value.split(";").map((p) => p.trim());
  if (!/^application\/(json|[a-z0-9!#$&^_.-]+\+json)$/i.test(type)) return false;
  for (const param of params) {
    const [name = "", raw = ""] = param.split("=").map((p) => p.trim());
    if (name.toLowerCase() === "charset" && raw.replace(/^"|"$/g, "").toLowerCase() !== "utf-8") return false;
  }
  return true;
}

/** True when a parsed JSON value has a `__proto__` key, or `constructor.prototype`, at any depth. */
export function hasPrototypeKeys(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      stack.push(...v);
      continue;
    }
    for (const [key, child] of Object.entries(v)) {
      if (key === "__proto__") return true;
      if (key === "constructor" && child !== null && typeof child === "object" && Object.hasOwn(child, "prototype"))
        return true;
      stack.push(child);
    }
  }
  return false;
}

/** Strict UTF-8 that drops one leading byte-order mark, as every implementation decodes a body. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

const depthOf = (value: unknown): number => {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== "object") continue;
    max = Math.max(max, d);
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
};

/** Query pairs as the apps see them: each value decoded, a key given twice becomes an array. */
export function parseQuery(search: string): { values: Record<string, string | string[]>; malformed: boolean } {
  const values: Record<string, string | string[]> = Object.create(null);
  let malformed = false;
  if (search === "") return { values, malformed };
  for (const pair of search.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, " "));
      } catch {
        malformed = true;
        return s;
      }
    };
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = decode(eq < 0 ? "" : pair.slice(eq + 1));
    const previous = values[key];
    values[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return { values, malformed };
}

const passes = (schema: z.ZodType | undefined, value: unknown) => !schema || schema.safeParse(value).success;

/** A signed-in caller the generator sends requests as. */
export interface KnownCaller {
  id: string;
  role: Role;
}

/** The valid callers, by the `authorization` header value they send; every other value is refused. */
export interface OracleContext {
  callers: ReadonlyMap<string, KnownCaller>;
}

/** The 401 a request without a valid token gets, with the challenge its `authorization` header calls for. */
export function unauthorizedFor(authorization: string | undefined): Answer {
  const value = authorization?.trim() ?? "";
  // No header, or another scheme (`Basic …`, `bearer<token>`): the request had no bearer token.
  if (!/^bearer(\s|$)/i.test(value)) return { ...problemOf("unauthorized"), challenge: "missing" };
  // The bearer scheme with nothing after it: the contract does not say whether that is a token.
  if (/^bearer$/i.test(value)) return { ...problemOf("unauthorized"), challenge: "any" };
  return { ...problemOf("unauthorized"), challenge: "invalid_token" };
}

const forbiddenAnswer: Answer = { ...problemOf("forbidden"), challenge: "insufficient_scope" };

/**
 * What a customer's valid request gets where ownership decides it, or undefined for the route's usual outcomes: a
 * user other than themself is a 404, as is any order (the customer the generator signs in as owns none a request can
 * name: theirs are created during the run, their ids in no pool), and an order status but `cancelled` a 403.
 */
function customerOutcome(route: RouteSpec, params: Record<string, string>, body: unknown, caller: KnownCaller) {
  const key = `${route.method} ${route.path}`;
  if (route.path === "/users/:id" && params.id?.toLowerCase() !== caller.id) return [problemOf("notFound")];
  if (key === "GET /orders/:id") return [problemOf("notFound")];
  if (key === "PATCH /orders/:id")
    return (body as { status?: unknown }).status === "cancelled" ? [problemOf("notFound")] : [forbiddenAnswer];
  return undefined;
}

export function expectedFor(exchange: Exchange, context: OracleContext): Expected {
  // The raw path, as the apps route on it (no normalisation of dot segments or case).
  const rawPath = exchange.path.split("?")[0] ?? "";
  const rawSearch = exchange.path.includes("?") ? exchange.path.slice(exchange.path.indexOf("?") + 1) : "";
  const template = matchTemplate(rawPath);
  if (!template) return { answers: [problemOf("notFound")] };
  const methods = methodsByPath.get(template) ?? [];
  if (!methods.includes(exchange.method)) return { answers: [problemOf("methodNotAllowed")], template };
  const route = routes.find((r) => r.path === template && r.method === exchange.method) as RouteSpec;
  const headers = Object.fromEntries(Object.entries(exchange.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const lenient: string[] = [];
  const extra: Answer[] = [];

  // The caller, before anything about the request itself: a caller who may not call a route learns nothing of it.
  let caller: KnownCaller | undefined;
  if (route.access !== "public") {
    caller = context.callers.get(headers.authorization ?? "");
    if (!caller) return { answers: [unauthorizedFor(headers.authorization)], template };
    if (route.access === "admin" && caller.role !== "admin") return { answers: [forbiddenAnswer], template };
  }

  let body: unknown;
  if (route.body) {
    const bytes =
      exchange.body === undefined
        ? Buffer.alloc(0)
        : typeof exchange.body === "string"
          ? Buffer.from(exchange.body, "utf8")
          : exchange.body;
    if (bytes.length > 0 && !isJsonContentType(headers["content-type"]))
      return { answers: [problemOf("unsupportedMediaType")], template };
    // Request bodies are never decompressed: any content-encoding but identity is a 415.
    const encoding = headers["content-encoding"]?.trim().toLowerCase();
    if (bytes.length > 0 && encoding !== undefined && encoding !== "identity")
      return { answers: [problemOf("unsupportedMediaType")], template };
    if (bytes.length > MAX_BODY_BYTES) return { answers: [problemOf("payloadTooLarge")], template };
    if (bytes.length === 0) return { answers: [problemOf("validation")], template };
    // UTF-8 only, one byte-order mark ignored (README "Edges of HTTP" in packages/contract): the decoder drops
    // one, JSON.parse refuses a second.
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      return { answers: [problemOf("malformedJson")], template };
    }
    try {
      body = JSON.parse(text);
    } catch {
      return { answers: [problemOf("malformedJson"), ...extra], template, lenient: lenient.join("; ") || undefined };
    }
    // Deeper than MAX_JSON_DEPTH arrays/objects is malformed JSON by the contract (1,000 levels are accepted).
    if (depthOf(body) > MAX_JSON_DEPTH)
      return { answers: [problemOf("malformedJson"), ...extra], template, lenient: lenient.join("; ") || undefined };
    if (body === null || typeof body !== "object" || Array.isArray(body) || hasPrototypeKeys(body))
      return { answers: [problemOf("validation"), ...extra], template, lenient: lenient.join("; ") || undefined };
  }

  const params: Record<string, string> = {};
  if (route.params) {
    const segments = rawPath.split("/");
    template.split("/").forEach((part, i) => {
      if (part.startsWith(":")) {
        try {
          params[part.slice(1)] = decodeURIComponent(segments[i] ?? "");
        } catch {
          // Undecodable percent-encoding in a parameter is a 400 on it (the contract's rule).
          params[part.slice(1)] = "\u0000undecodable";
        }
      }
    });
  }
  const query = parseQuery(rawSearch);
  if (route.query && query.malformed) {
    lenient.push("malformed percent-encoding in the query");
    extra.push(problemOf("validation"));
  }

  const valid = (b: unknown) =>
    passes(route.params, params) &&
    passes(route.query, query.values) &&
    (!route.body || passes(route.body, b)) &&
    passes(route.headers, headers);
  if (!valid(body))
    return { answers: [problemOf("validation"), ...extra], template, lenient: lenient.join("; ") || undefined };

  const why = lenient.join("; ") || undefined;
  const owner = caller?.role === "customer" ? { owner: caller.id } : {};
  const decided = caller?.role === "customer" ? customerOutcome(route, params, body, caller) : undefined;
  if (decided) return { answers: [...decided, ...extra], template, lenient: why, ...owner };
  // A known caller's token stays valid (neither caller is ever deleted), and an admin may do everything.
  const stateDependent = (route.errors ?? []).filter(
    (status) => !(caller && status === 401) && !(caller?.role === "admin" && status === 403),
  );
  const answers = [
    { status: route.success.status },
    ...stateDependent.map((status) => ({ status, type: TYPE_BY_STATUS.get(status) })),
    ...extra,
  ];
  return { answers, template, lenient: why, ...owner };
}
