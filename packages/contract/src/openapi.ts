// The OpenAPI 3.1 document, generated from the route table and the Zod schemas (JSON Schema 2020-12 is
// OpenAPI 3.1's own dialect, so Zod's native converter is all it takes).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { PROBLEM_CONTENT_TYPE, PROBLEMS, Problem } from "./problems.ts";
import { type RouteSpec, routes } from "./routes.ts";
import { IDEMPOTENCY_KEY_PATTERN, queryMeaning, REQUEST_ID_PATTERN } from "./schemas.ts";

type JsonSchema = Record<string, unknown>;

/** JSON Schema of what a client sends (`input`) or receives (`output`), without the `$schema` key. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
  }) as JsonSchema;
  return rest;
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

const problemDescriptions: Record<number, string> = {
  400: "Validation failed, or the body is not valid JSON",
  401: "Missing, malformed, tampered or expired token, or one whose user no longer exists; or wrong credentials",
  403: "The caller's role may not do this (see docs/api.md, Authorization)",
  404: "No such resource, or one that belongs to another user",
  405: "Method not allowed on this path (see the `allow` header)",
  409: "Conflict with the current state",
  413: "Body over 1 MiB",
  415: "Body is not application/json",
  422: "References a product that does not exist, or reuses an idempotency key with another body",
  429: "Too many requests from this client address to this route (see the `retry-after` header)",
  503: "The database cannot be reached or cannot answer in time (see the `retry-after` header)",
};

/** RFC 6750 §3: a challenge on every 401 (with `error="invalid_token"` for a bad token), `insufficient_scope` on 403. */
const wwwAuthenticateHeader = (status: 401 | 403) => ({
  description:
    status === 401
      ? '`Bearer` when no bearer token was sent; `Bearer error="invalid_token"` for one that was refused'
      : '`Bearer error="insufficient_scope"`',
  required: true,
  schema: { type: "string", pattern: "^Bearer" },
});

const requestIdHeader = {
  description: "The request's own `x-request-id` when it is 1–128 characters of `[A-Za-z0-9._-]`, else a fresh UUID",
  schema: { type: "string" },
};

/** Every error status a route can answer (each documented with the problem schema). */
export function errorStatuses(route: RouteSpec): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  if (route.params || route.query || route.body) statuses.add(400);
  if (route.body) {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.access !== "public") statuses.add(401);
  if (route.access === "admin") statuses.add(403);
  if (route.ownRows && route.params) statuses.add(404);
  if (route.database) statuses.add(503);
  if (route.rateLimited) statuses.add(429);
  if (route.idempotencyKey) {
    statuses.add(409);
    statuses.add(422);
  }
  return [...statuses].sort();
}

/** A Zod object's shape, through its refinements (a refined object is still a ZodObject in Zod 4). */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  if (!(schema instanceof z.ZodObject)) throw new Error("path and query schemas must be objects");
  return schema.shape as Record<string, z.ZodType>;
}

/** The schema under `.optional()` and `.default()`, and the default when there is one. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean; default?: unknown } {
  let inner = schema;
  let optional = false;
  let defaultValue: unknown;
  for (;;) {
    if (inner instanceof z.ZodOptional) {
      optional = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodDefault) {
      optional = true;
      defaultValue = inner.def.defaultValue;
      inner = inner.unwrap() as z.ZodType;
    } else {
      return defaultValue === undefined ? { inner, optional } : { inner, optional, default: defaultValue };
    }
  }
}

/**
 * One path or query parameter, described by what it means: a query integer is an `integer` with its bounds, not a
 * string of digits (`queryMeaning` in schemas.ts); the default is stated. The wire form is what the Zod schema
 * validates; `wireSchema` below gives it for tools that compare against it.
 */
function parameter(name: string, location: "path" | "query", schema: z.ZodType): JsonSchema {
  const { inner, optional, default: defaultValue } = unwrap(schema);
  const meaning = queryMeaning.get(inner);
  const described = meaning ? { ...meaning.schema } : jsonSchema(inner, "input");
  if (defaultValue !== undefined) described.default = defaultValue;
  return {
    name,
    in: location,
    required: location === "path" || !optional,
    ...(inner.description ? { description: inner.description } : {}),
    ...(meaning?.style ? { style: meaning.style, explode: meaning.explode ?? true } : {}),
    schema: described,
  };
}

/** The JSON Schema of a route's path or query parameters as strings on the wire (what validation accepts). */
export function wireSchema(schema: z.ZodType): JsonSchema {
  return jsonSchema(schema, "input");
}

function parameters(route: RouteSpec) {
  const out: JsonSchema[] = [];
  for (const [location, schema] of [
    ["path", route.params],
    ["query", route.query],
  ] as const) {
    if (!schema) continue;
    for (const [name, property] of Object.entries(shapeOf(schema))) out.push(parameter(name, location, property));
  }
  if (route.idempotencyKey) {
    out.push({
      name: "idempotency-key",
      in: "header",
      required: false,
      description: "A retry with the same key and body replays the first response and creates nothing",
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
    });
  }
  out.push({
    name: "x-request-id",
    in: "header",
    required: false,
    description: "Echoed in the response's `x-request-id` when valid; otherwise the response carries a fresh UUID",
    schema: { type: "string", pattern: REQUEST_ID_PATTERN.source },
  });
  return out;
}

/**
 * OpenAPI links from a create (a route whose success has a `location`) to every operation on the resource it
 * created (`/users` → `/users/:id`): the new id is `$response.body#/id`. Tools that test workflows (Schemathesis's
 * stateful phase) follow them: create, then read, update and delete what was created.
 */
function linksFrom(route: RouteSpec): Record<string, unknown> | undefined {
  if (!route.success.location) return undefined;
  const targets = routes.filter((r) => r.path === `${route.path}/:id`);
  if (targets.length === 0) return undefined;
  return Object.fromEntries(
    targets.map((target) => [
      target.operationId,
      {
        operationId: target.operationId,
        parameters: { id: "$response.body#/id" },
        description: "With the id of the resource just created",
      },
    ]),
  );
}

function operation(route: RouteSpec) {
  const { success } = route;
  const successContent = success.schema
    ? { "application/json": { schema: jsonSchema(success.schema, "output") } }
    : success.contentType
      ? {
          [success.contentType]: {
            schema: success.contentType === "application/json" ? { type: "object" } : { type: "string" },
          },
        }
      : undefined;
  const links = linksFrom(route);
  const responses: Record<string, unknown> = {
    [success.status]: {
      description: success.description,
      headers: {
        "x-request-id": requestIdHeader,
        ...(success.location
          ? { location: { description: "Where the new resource lives", schema: { type: "string" } } }
          : {}),
      },
      ...(successContent ? { content: successContent } : {}),
      ...(links ? { links } : {}),
    },
  };
  for (const status of errorStatuses(route)) {
    responses[status] = {
      description: problemDescriptions[status] ?? "Error",
      headers: {
        "x-request-id": requestIdHeader,
        ...(status === 405 ? { allow: { schema: { type: "string" } } } : {}),
        ...(status === 401 || status === 403 ? { "www-authenticate": wwwAuthenticateHeader(status) } : {}),
        ...(status === 503 || status === 429
          ? {
              "retry-after": {
                description: "Seconds to wait before trying again",
                required: true,
                schema: { type: "string", pattern: "^[0-9]+$" },
              },
            }
          : {}),
      },
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: "#/components/schemas/Problem" } } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    parameters: parameters(route),
    ...(route.body
      ? {
          requestBody: { required: true, content: { "application/json": { schema: jsonSchema(route.body, "input") } } },
        }
      : {}),
    // Public operations say so (`[]`); every other one needs the bearer token.
    security: route.access === "public" ? [] : [{ bearer: [] }],
    responses,
  };
}

const TAGS = [
  { name: "meta", description: "Hello world, liveness and readiness, echo, metrics and this document" },
  { name: "users", description: "Users: e-mail unique and lower-cased; a user with orders cannot be deleted" },
  {
    name: "products",
    description: "Products: prices in integer cents; stock moves only with orders, atomically",
  },
  {
    name: "orders",
    description:
      "Orders: placing one takes stock in one transaction and never oversells; retries are safe with an `idempotency-key`",
  },
  {
    name: "auth",
    description: "Registration, login (an HS256 JWT valid for one hour) and the user a bearer token belongs to",
  },
];

/**
 * The licence the API description is published under. The repository has no licence file yet; until it has one,
 * the document says so rather than claim a licence nobody granted.
 */
export const API_LICENSE = { name: "MIT", identifier: "MIT" };

function buildDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Users, products and orders",
      version: "1.0.0",
      license: API_LICENSE,
      description:
        "The one API every implementation of this project serves. Errors are RFC 9457 problem details; " +
        `their types are ${Object.values(PROBLEMS)
          .map((p) => `\`${p.type}\``)
          .join(", ")}.`,
    },
    // The document is served by the implementation it describes: requests go to the same origin.
    servers: [{ url: "/", description: "The implementation serving this document" }],
    tags: TAGS,
    paths,
    components: {
      schemas: { Problem: jsonSchema(Problem, "output") },
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}

/** The document every implementation serves at /openapi.json (built once, on first use). */
export const openApiDocument: ReturnType<typeof buildDocument> = buildDocument();

/**
 * Where the contract's build (`pnpm --filter @api-ref/contract build:docs-page`, scripts/docs-page.ts) writes the
 * /docs page, for an install without Scalar's package: the production images, whose dependencies are installed
 * with `--prod`. `@scalar/api-reference` is a development dependency because the page needs one 4 MB script of it,
 * while the package and its dependencies weigh about 160 MB.
 */
export const BUILT_DOCS_PAGE: string = fileURLToPath(new URL("../dist/docs.html", import.meta.url));

/**
 * Scalar's API reference as one script, read from the installed package: `/docs` loads nothing from the network,
 * so it works offline. It is inlined into the page (no second route to serve); the three character sequences that
 * would end or confuse an HTML script element are written as `\x3C`, which means `<` in every place they occur
 * (strings, regular expressions, template literals).
 */
function apiReferenceScript(entry: string): string {
  // The package exports no path to its browser bundle; it sits beside the entry point (dist/browser/).
  return (
    readFileSync(join(dirname(entry), "browser", "standalone.js"), "utf8")
      // Its stylesheet declares web fonts on Scalar's font server; without them the page uses the system's fonts.
      .replace(/@font-face\s*\{[^{}]*url\(https:\/\/fonts\.scalar\.com\/[^{}]*\}/g, "")
      .replace(/<(?=\/?script|!--)/gi, "\\x3C")
      .replace(/\n\/\/# sourceMappingURL=.*$/, "\n")
  );
}

/** Where `@scalar/api-reference` is installed, or null when it is not (an install with `--prod`). */
function scalarEntry(): string | null {
  try {
    return createRequire(import.meta.url).resolve("@scalar/api-reference");
  } catch {
    return null;
  }
}

/** The /docs page built from Scalar's installed package: Scalar's API reference rendering /openapi.json. */
export function docsPageFromPackage(entry: string | null = scalarEntry()): string {
  if (entry === null)
    throw new Error("@scalar/api-reference is not installed: install the contract's development dependencies");
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>API reference</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<div id="reference"></div>
<script>${apiReferenceScript(entry)}</script>
<script>Scalar.createApiReference("#reference", { url: "/openapi.json", defaultOpenAllTags: true, withDefaultFonts: false, telemetry: false });</script>
</body>
</html>
`;
}

/**
 * The /docs page: built from Scalar's package where it is installed (a checkout: never older than the package),
 * else the page the build wrote (an image). Throws, naming both, when there is neither.
 */
export function loadDocsPage(entry: string | null = scalarEntry(), builtPage = BUILT_DOCS_PAGE): string {
  if (entry !== null) return docsPageFromPackage(entry);
  try {
    return readFileSync(builtPage, "utf8");
  } catch (error) {
    throw new Error(
      `the /docs page needs @scalar/api-reference (a development dependency of @api-ref/contract) or the page ` +
        `built from it at ${builtPage} (pnpm --filter @api-ref/contract build:docs-page), and neither is there ` +
        `(${(error as Error).message})`,
    );
  }
}

let docsPage: string | undefined;

/**
 * The HTML page every app serves at /docs (see loadDocsPage). Made on first use (reading and escaping the 4 MB
 * script takes a noticeable part of a start-up otherwise), then kept.
 */
export function docsHtml(): string {
  docsPage ??= loadDocsPage();
  return docsPage;
}
