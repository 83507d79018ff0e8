// The OpenAPI 3.1 document, generated from the route table and the Zod schemas (JSON Schema 2020-12 is
// OpenAPI 3.1's own dialect, so Zod's native converter is all it takes).
import { z } from "zod";
import { PROBLEM_CONTENT_TYPE, PROBLEMS, Problem } from "./problems.ts";
import { type RouteSpec, routes } from "./routes.ts";
import { IDEMPOTENCY_KEY_PATTERN, REQUEST_ID_PATTERN } from "./schemas.ts";

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
  401: "Missing, malformed, tampered or expired token; or wrong credentials",
  404: "No such resource",
  405: "Method not allowed on this path (see the `allow` header)",
  409: "Conflict with the current state",
  413: "Body over 1 MiB",
  415: "Body is not application/json",
  422: "References a user or product that does not exist, or reuses an idempotency key",
  503: "The database cannot be reached or cannot answer in time (see the `retry-after` header)",
};

const requestIdHeader = {
  description: "The request's own `x-request-id` when it is 1–128 characters of `[A-Za-z0-9._-]`, else a fresh UUID",
  schema: { type: "string" },
};

function errorStatuses(route: RouteSpec): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  if (route.params || route.query || route.body) statuses.add(400);
  if (route.body) {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.auth) statuses.add(401);
  if (route.database) statuses.add(503);
  if (route.idempotencyKey) {
    statuses.add(409);
    statuses.add(422);
  }
  return [...statuses].sort();
}

function parameters(route: RouteSpec) {
  const out: JsonSchema[] = [];
  for (const [location, schema] of [
    ["path", route.params],
    ["query", route.query],
  ] as const) {
    if (!schema) continue;
    const object = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      out.push({
        name,
        in: location,
        required: location === "path" || (object.required ?? []).includes(name),
        schema: property,
      });
    }
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
        ...(status === 503
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
    ...(route.auth ? { security: [{ bearer: [] }] } : {}),
    responses,
  };
}

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
      description:
        "The one API every implementation of this project serves. Errors are RFC 9457 problem details; " +
        `their types are ${Object.values(PROBLEMS)
          .map((p) => `\`${p.type}\``)
          .join(", ")}.`,
    },
    tags: [{ name: "meta" }, { name: "users" }, { name: "products" }, { name: "orders" }, { name: "auth" }],
    paths,
    components: {
      schemas: { Problem: jsonSchema(Problem, "output") },
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}

/** The document every implementation serves at /openapi.json (built once, on first use). */
export const openApiDocument: ReturnType<typeof buildDocument> = buildDocument();

/** A small HTML page that renders /openapi.json with Scalar's API reference, from a CDN. */
export const docsHtml = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>API reference</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<script id="api-reference" data-url="/openapi.json"></script>
<script src="https://cdn.jsdelivr.net/npm/@scalar/api-reference@1"></script>
</body>
</html>
`;
